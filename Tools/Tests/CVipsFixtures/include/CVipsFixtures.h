// Test images made with libvips, for SwitchyardImagesTests (not part of any product).
#ifndef SWITCHYARD_CVIPS_FIXTURES_H
#define SWITCHYARD_CVIPS_FIXTURES_H

#include <stddef.h>

/// An upright test picture `width` × `height`, 3 bands: red where x < width / 2, green where y < height / 2, blue 0;
/// transformed so that EXIF `orientation` (1–8) shows it upright, encoded as `suffix` (".jpg", ".png", ".webp",
/// ".tif", ".gif", ".avif") with the orientation tag when it is not 1. 0 on success; `*out` is freed with
/// `syf_free`.
int syf_picture(int width, int height, int orientation, const char *suffix, void **out, size_t *length);

/// The pixel at (x, y) of the encoded image, its first three bands (or the first one thrice), and its size.
int syf_pixel(const void *bytes, size_t length, int x, int y, double rgb[3], int *width, int *height);

void syf_free(void *bytes);
#endif
