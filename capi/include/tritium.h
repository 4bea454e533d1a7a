/* Tritium's C API: compile Triton IR (TTIR or TTGIR text) to PTX in-process.
 * Link with -ltritium (target/<profile>/libtritium.so, built by
 * `cargo build -p tritium-capi`). Every returned string is owned by the
 * result and valid until tritium_result_free. Thread safety: a context may be
 * used from one thread at a time; compiles are serialised inside the library. */
#ifndef TRITIUM_H
#define TRITIUM_H
#ifdef __cplusplus
extern "C" {
#endif

typedef struct tritium_context tritium_context;
typedef struct tritium_result tritium_result;

typedef struct tritium_options {
  const char *target;    /* "cuda:90", "cuda:80"; NULL: "cuda:90" */
  unsigned num_warps;    /* 0: 4 */
  unsigned num_stages;   /* 0: 3 */
  unsigned num_ctas;     /* 0: 1 */
  const char *libdevice; /* path of libdevice.10.bc, or NULL */
  int triton_abi;        /* nonzero: trailing global/profile scratch pointer parameters, as Triton's launcher passes */
  /* Upstream Triton's codegen options; zero keeps upstream's defaults. */
  unsigned maxnreg;        /* at most this many registers per thread (.maxnreg); 0: no limit */
  int no_fp_fusion;        /* nonzero: enable_fp_fusion=False (no fma from separate multiplies and adds) */
  int no_reflect_ftz;      /* nonzero: enable_reflect_ftz=False (libdevice and exp2 keep f32 denormals) */
  /* Upstream's instrumentation_mode: NULL or "": none; "consan": the concurrency sanitizer instruments the
   * kernel (races on shared/tensor memory and mbarrier deadlocks assert). Another mode is an error. */
  const char *instrumentation_mode;
  int no_line_info;        /* nonzero: no line tables (.file/.loc) in the PTX, as TRITON_DISABLE_LINE_INFO=1 */
  int debug_variables;     /* nonzero: source variables in the PTX's DWARF for cuda-gdb (and `.target ..., debug`),
                            * as LLVM_EXTRACT_DI_LOCAL_VARIABLES=1 */
} tritium_options;

/* The version of Tritium ("0.1.0"); a static string. */
const char *tritium_version(void);

tritium_context *tritium_context_create(void);
void tritium_context_free(tritium_context *context);

/* Compiles `source` (NUL-terminated TTIR or TTGIR); `source_name` (may be
 * NULL) names it in diagnostics. Never NULL: check tritium_result_ok. */
tritium_result *tritium_compile(tritium_context *context, const char *source, const char *source_name,
                                const tritium_options *options);
int tritium_result_ok(const tritium_result *result);
/* The PTX, or NULL when the compile failed. */
const char *tritium_result_ptx(const tritium_result *result);
/* The metadata JSON (name, target, num_warps, threads_per_block, shared,
 * parameters), or NULL when the compile failed. */
const char *tritium_result_metadata(const tritium_result *result);
/* The located diagnostics ("file:line:col: error: ..."), or NULL on success. */
const char *tritium_result_error(const tritium_result *result);
void tritium_result_free(tritium_result *result);

#ifdef __cplusplus
}
#endif
#endif
