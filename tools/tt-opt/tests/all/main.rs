//! Tritium's one integration-test binary (every test binary links all of
//! MLIR, so there is only this one): the lit suite, round trips of upstream
//! Triton's IR, the Rust API, malformed input, upstream CSE/DCE on tt IR,
//! passes against upstream's, the TTIR -> TTGIR pipeline against upstream's,
//! and compiling the corpus kernels to PTX.
mod axis_info;
mod common;
mod corpus_roundtrip;
mod cse_dce;
mod determinism;
mod differential;
mod ir_layer;
mod layout_api;
mod lit;
mod lowering;
mod lowering_ops;
mod malformed;
mod op_builders;
mod pipeline;
mod regressions;
mod reliability;
mod snapshots;
mod tma;
mod warp_specialize;
mod ws_steps;
