// Test images made with libvips, for the image and CLI tests and the benchmark's corpus (in no product).
#ifndef SWITCHYARD_CVIPS_FIXTURES_H
#define SWITCHYARD_CVIPS_FIXTURES_H

#include <stddef.h>

/// An upright test picture `width` × `height`, 3 bands: red where x < width / 2, green where y < height / 2, blue 0;
/// transformed so that EXIF `orientation` (1–8) shows it upright, encoded as `suffix` (".jpg", ".png", ".webp",
/// ".tif", ".gif", ".avif") with the orientation tag when it is not 1. 0 on success; `*out` is freed with
/// `syf_free`.
int syf_picture(int width, int height, int orientation, const char *suffix, void **out, size_t *length);

/// The test picture converted to CMYK with libvips' built-in CMYK profile embedded, as a JPEG. 0 on success.
int syf_cmyk_picture(int width, int height, void **out, size_t *length);

/// An image of `width` × `height` of one grey, encoded as `suffix` (".jpg", ".png") while it is generated (in
/// fixed memory, whatever the size).
int syf_plain_image(int width, int height, const char *suffix, void **out, size_t *length);

/// A one-band (grey) JPEG of `width` × `height`: 64 on the left half, 191 on the right. 0 on success; `*out` is
/// freed with `syf_free`.
int syf_grey_picture(int width, int height, void **out, size_t *length);

/// The mean and the largest absolute difference of two encoded images of one size and band count, over every
/// pixel and band. 0 on success.
int syf_difference(const void *one, size_t one_length, const void *other, size_t other_length, double *mean,
    double *largest);

/// The pixel at (x, y) of the encoded image, its first three bands (or the first one thrice), and its size.
int syf_pixel(const void *bytes, size_t length, int x, int y, double rgb[3], int *width, int *height);

/// A photo-like picture for benchmarks: smooth colour fields with fine grain, the same for the same `seed`, with
/// an alpha band if `alpha`, tagged with EXIF `orientation` (1: none), encoded as `suffix` (which may carry saver
/// options: ".jpg[Q=90]"). 0 on success; `*out` is freed with `syf_free`.
int syf_photo(int width, int height, unsigned long long seed, int orientation, int alpha, const char *suffix,
    void **out, size_t *length);

/// The test picture (see `syf_picture`) at 16 bits a channel, encoded as `suffix` (".png", ".tif").
int syf_deep_picture(int width, int height, const char *suffix, void **out, size_t *length);

/// A two-frame GIF: the test picture, then black. 0 on success; `*out` is freed with `syf_free`.
int syf_animated_picture(int width, int height, void **out, size_t *length);

/// The alpha at (x, y) of the encoded image; -1 if it has no alpha band (or cannot be decoded).
double syf_alpha(const void *bytes, size_t length, int x, int y);

/// A PNG of `width` × `height`, red and wholly transparent. 0 on success; `*out` is freed with `syf_free`.
int syf_transparent(int width, int height, void **out, size_t *length);

/// Decodes the image at `path` and nothing else: a JPEG at the largest shrink-on-load (1/2, 1/4, 1/8) that keeps
/// its longer side at least `size`, any other format whole; its pixels summed so that every one is decoded. What
/// no thumbnailer built on these decoders can go below. 0 on success.
int syf_decode(const char *path, int size);

void syf_free(void *bytes);
#endif
