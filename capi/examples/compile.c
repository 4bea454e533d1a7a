/* Compiles a Triton IR file with Tritium's C API and writes the PTX.
 *   compile KERNEL.ttir OUT.ptx [num_warps] [num_stages] [--triton-abi] [--maxnreg=N] [--no-fp-fusion] [--no-reflect-ftz] [--instrumentation-mode=MODE]
 * Prints the metadata JSON to stdout; on failure the diagnostics to stderr, exit 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tritium.h"

static char *read_file(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file) return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (text && fread(text, 1, size, file) != (size_t)size) { free(text); text = NULL; }
  if (text) text[size] = '\0';
  fclose(file);
  return text;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s KERNEL.ttir OUT.ptx [num_warps] [num_stages] [--triton-abi] [--maxnreg=N] [--no-fp-fusion] [--no-reflect-ftz] [--instrumentation-mode=MODE]\n", argv[0]);
    return 2;
  }
  char *source = read_file(argv[1]);
  if (!source) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
  tritium_options options = {0};
  options.target = "cuda:90";
  options.num_warps = argc > 3 ? (unsigned)atoi(argv[3]) : 4;
  options.num_stages = argc > 4 ? (unsigned)atoi(argv[4]) : 3;
  for (int i = 5; i < argc; i++) {
    if (strcmp(argv[i], "--triton-abi") == 0) options.triton_abi = 1;
    else if (strncmp(argv[i], "--maxnreg=", 10) == 0) options.maxnreg = (unsigned)atoi(argv[i] + 10);
    else if (strcmp(argv[i], "--no-fp-fusion") == 0) options.no_fp_fusion = 1;
    else if (strcmp(argv[i], "--no-reflect-ftz") == 0) options.no_reflect_ftz = 1;
    else if (strcmp(argv[i], "--no-line-info") == 0) options.no_line_info = 1;
    else if (strcmp(argv[i], "--debug-variables") == 0) options.debug_variables = 1;
    else if (strncmp(argv[i], "--instrumentation-mode=", 23) == 0) options.instrumentation_mode = argv[i] + 23;
    else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
  }
  options.libdevice = getenv("LIBDEVICE");

  tritium_context *context = tritium_context_create();
  tritium_result *result = tritium_compile(context, source, argv[1], &options);
  int status = 0;
  if (tritium_result_ok(result)) {
    FILE *out = fopen(argv[2], "wb");
    if (!out) { fprintf(stderr, "cannot write %s\n", argv[2]); status = 2; }
    else { fputs(tritium_result_ptx(result), out); fclose(out); printf("%s", tritium_result_metadata(result)); }
  } else {
    fprintf(stderr, "%s\n", tritium_result_error(result));
    status = 1;
  }
  tritium_result_free(result);
  tritium_context_free(context);
  free(source);
  printf("tritium %s\n", tritium_version());
  return status;
}
