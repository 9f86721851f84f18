// libvips' headers and flags on Apple platforms (Homebrew's vips, through pkg-config), for the CVips target.
#ifndef SWITCHYARD_CLIBVIPS_APPLE_H
#define SWITCHYARD_CLIBVIPS_APPLE_H
#endif
