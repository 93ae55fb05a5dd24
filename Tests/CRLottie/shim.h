// rlottie's C API, the reference renderer of the Lottie tests and benchmarks only.
#include <rlottie_capi.h>
