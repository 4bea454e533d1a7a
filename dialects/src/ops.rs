//! Op builders generated from the dialects' ODS by melior (one module per
//! dialect). Passes match ops by name (`op.name()`); these are for building.
melior::dialect! {
    name: "tt",
    files: ["TritonOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}

melior::dialect! {
    name: "ttg",
    files: ["TritonGPUOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}

melior::dialect! {
    name: "ttng",
    files: ["TritonNvidiaGPUOps.td"],
    include_directory_env_vars: ["TRITIUM_TD_DIR"],
}
