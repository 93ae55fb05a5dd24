// rlottie's C API: the renderer the Lottie benchmarks compare RefreshLab's with.
#include <rlottie_capi.h>
