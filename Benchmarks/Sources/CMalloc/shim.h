// glibc's malloc_trim, to hand freed heap back to the kernel before reading VmRSS (Linux only).
#if defined(__linux__)
#include <malloc.h>
#endif
