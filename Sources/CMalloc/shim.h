/* glibc's malloc statistics (mallinfo2), which the Glibc module does not carry. */
#include <malloc.h>
