// The compiler flags for libvips' headers on Linux (glib's, through pkg-config), for the CVips target, which
// includes <vips/vips.h> itself. libvips is not linked: CVips loads it when the first image is processed.
#ifndef SWITCHYARD_CLIBVIPS_H
#define SWITCHYARD_CLIBVIPS_H
#endif
