// libvips' compiler and linker flags (pkg-config `vips`) for the images suite's C target, which calls libvips
// directly: the corpus generator and the decoding ceiling, timed without Switchyard in between.
#include <vips/vips.h>
