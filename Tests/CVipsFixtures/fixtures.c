#include "CVipsFixtures.h"
// Empty without the Images trait (no libvips).
#ifdef SWITCHYARD_IMAGES
#include <string.h>
#include <vips/vips.h>

static VipsImage *upright(int width, int height) {
    VipsImage *xyz = NULL, *x = NULL, *y = NULL, *red = NULL, *green = NULL, *blue = NULL, *rgb = NULL, *out = NULL;
    if (vips_xyz(&xyz, width, height, NULL)) return NULL;
    vips_extract_band(xyz, &x, 0, NULL);
    vips_extract_band(xyz, &y, 1, NULL);
    vips_less_const1(x, &red, width / 2, NULL);
    vips_less_const1(y, &green, height / 2, NULL);
    vips_black(&blue, width, height, NULL);
    VipsImage *bands[3] = {red, green, blue};
    if (red && green && blue && vips_bandjoin(bands, &rgb, 3, NULL) == 0) {
        vips_cast_uchar(rgb, &out, NULL);
    }
    VipsImage *all[] = {xyz, x, y, red, green, blue, rgb};
    for (int i = 0; i < 7; i++) if (all[i]) g_object_unref(all[i]);
    if (out) out->Type = VIPS_INTERPRETATION_sRGB;
    return out;
}

// The raw pixels that orientation `o` displays as `in`: the inverse of what a viewer applies for `o`.
static VipsImage *raw_for(VipsImage *in, int o) {
    VipsImage *a = NULL, *b = NULL;
    switch (o) {
    case 2: vips_flip(in, &a, VIPS_DIRECTION_HORIZONTAL, NULL); return a;
    case 3: vips_rot(in, &a, VIPS_ANGLE_D180, NULL); return a;
    case 4: vips_flip(in, &a, VIPS_DIRECTION_VERTICAL, NULL); return a;
    case 5: vips_rot(in, &a, VIPS_ANGLE_D90, NULL); break;
    case 6: vips_rot(in, &a, VIPS_ANGLE_D270, NULL); return a;
    case 7: vips_rot(in, &a, VIPS_ANGLE_D270, NULL); break;
    case 8: vips_rot(in, &a, VIPS_ANGLE_D90, NULL); return a;
    default: vips_copy(in, &a, NULL); return a;
    }
    if (!a) return NULL;
    vips_flip(a, &b, VIPS_DIRECTION_HORIZONTAL, NULL);
    g_object_unref(a);
    return b;
}

int syf_picture(int width, int height, int orientation, const char *suffix, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *picture = upright(width, height);
    if (!picture) return -1;
    VipsImage *raw = raw_for(picture, orientation);
    g_object_unref(picture);
    if (!raw) return -1;
    VipsImage *tagged = NULL;
    if (vips_copy(raw, &tagged, NULL)) {
        g_object_unref(raw);
        return -1;
    }
    g_object_unref(raw);
    if (orientation != 1) vips_image_set_int(tagged, VIPS_META_ORIENTATION, orientation);
    int status = vips_image_write_to_buffer(tagged, suffix, out, length, NULL);
    g_object_unref(tagged);
    return status;
}

int syf_cmyk_picture(int width, int height, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *picture = upright(width, height);
    if (!picture) return -1;
    VipsImage *cmyk = NULL;
    int status = vips_icc_export(picture, &cmyk, "output_profile", "cmyk", NULL);
    g_object_unref(picture);
    if (status) return status;
    status = vips_image_write_to_buffer(cmyk, ".jpg[Q=95]", out, length, NULL);
    g_object_unref(cmyk);
    return status;
}

int syf_plain_image(int width, int height, const char *suffix, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *black = NULL, *grey = NULL;
    if (vips_black(&black, width, height, "bands", 3, NULL)) return -1;
    int status = vips_linear1(black, &grey, 1.0, 128.0, "uchar", TRUE, NULL);
    g_object_unref(black);
    if (status) return status;
    status = vips_image_write_to_buffer(grey, suffix, out, length, NULL);
    g_object_unref(grey);
    return status;
}

int syf_grey_picture(int width, int height, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *xyz = NULL, *x = NULL, *right = NULL, *grey = NULL;
    int status = vips_xyz(&xyz, width, height, NULL) || vips_extract_band(xyz, &x, 0, NULL)
        || vips_more_const1(x, &right, width / 2, NULL) || vips_linear1(right, &grey, 0.5, 64.0, "uchar", TRUE, NULL);
    if (status == 0) {
        grey->Type = VIPS_INTERPRETATION_B_W;
        status = vips_image_write_to_buffer(grey, ".jpg[Q=95]", out, length, NULL);
    }
    VipsImage *all[] = {xyz, x, right, grey};
    for (int i = 0; i < 4; i++) if (all[i]) g_object_unref(all[i]);
    return status;
}

int syf_difference(const void *one, size_t one_length, const void *other, size_t other_length, double *mean,
    double *largest) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *a = vips_image_new_from_buffer(one, one_length, "", NULL);
    VipsImage *b = vips_image_new_from_buffer(other, other_length, "", NULL);
    VipsImage *difference = NULL, *absolute = NULL;
    int status = !a || !b || vips_subtract(a, b, &difference, NULL) || vips_abs(difference, &absolute, NULL)
        || vips_avg(absolute, mean, NULL) || vips_max(absolute, largest, NULL);
    VipsImage *all[] = {a, b, difference, absolute};
    for (int i = 0; i < 4; i++) if (all[i]) g_object_unref(all[i]);
    return status ? -1 : 0;
}

int syf_pixel(const void *bytes, size_t length, int x, int y, double rgb[3], int *width, int *height) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    double *vector = NULL;
    int n = 0;
    int status = vips_getpoint(image, &vector, &n, x, y, NULL);
    if (status == 0) {
        for (int i = 0; i < 3; i++) rgb[i] = vector[n >= 3 ? i : 0];
        g_free(vector);
    }
    g_object_unref(image);
    return status;
}

int syf_photo(int width, int height, unsigned long long seed, int orientation, int alpha, const char *suffix,
    void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    int bands = alpha ? 4 : 3;
    int small_width = width / 32 > 2 ? width / 32 : 2, small_height = height / 32 > 2 ? height / 32 : 2;
    size_t size = (size_t)small_width * small_height * bands;
    unsigned char *pixels = g_malloc(size);
    unsigned long long state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (size_t i = 0; i < size; i++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        pixels[i] = (unsigned char)(state >> 56);
    }
    VipsImage *small = vips_image_new_from_memory_copy(pixels, size, small_width, small_height, bands, VIPS_FORMAT_UCHAR);
    g_free(pixels);
    if (!small) return -1;
    VipsImage *big = NULL, *grain = NULL, *sum = NULL, *photo = NULL;
    int status = vips_resize(small, &big, (double)width / small_width, "vscale", (double)height / small_height, NULL);
    if (status == 0) status = vips_gaussnoise(&grain, vips_image_get_width(big), vips_image_get_height(big),
        "sigma", 8.0, "mean", 0.0, "seed", (int)(seed & 0x7fffffff), NULL);
    if (status == 0) status = vips_add(big, grain, &sum, NULL);
    if (status == 0) status = vips_cast_uchar(sum, &photo, NULL);
    if (status == 0) {
        photo->Type = VIPS_INTERPRETATION_sRGB;
        if (orientation != 1) vips_image_set_int(photo, VIPS_META_ORIENTATION, orientation);
        status = vips_image_write_to_buffer(photo, suffix, out, length, NULL);
    }
    VipsImage *all[] = {small, big, grain, sum, photo};
    for (int i = 0; i < 5; i++) if (all[i]) g_object_unref(all[i]);
    return status;
}

int syf_deep_picture(int width, int height, const char *suffix, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *picture = upright(width, height), *scaled = NULL, *deep = NULL;
    if (!picture) return -1;
    int status = vips_linear1(picture, &scaled, 257.0, 0.0, NULL);
    if (status == 0) status = vips_cast_ushort(scaled, &deep, NULL);
    if (status == 0) {
        deep->Type = VIPS_INTERPRETATION_RGB16;
        status = vips_image_write_to_buffer(deep, suffix, out, length, NULL);
    }
    VipsImage *all[] = {picture, scaled, deep};
    for (int i = 0; i < 3; i++) if (all[i]) g_object_unref(all[i]);
    return status;
}

int syf_animated_picture(int width, int height, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *first = upright(width, height), *second = NULL, *second_rgb = NULL, *pages = NULL, *copy = NULL;
    if (!first) return -1;
    int status = vips_black(&second, width, height, "bands", 3, NULL);
    if (status == 0) status = vips_cast_uchar(second, &second_rgb, NULL);
    if (status == 0) status = vips_join(first, second_rgb, &pages, VIPS_DIRECTION_VERTICAL, NULL);
    if (status == 0) status = vips_copy(pages, &copy, NULL);
    if (status == 0) {
        copy->Type = VIPS_INTERPRETATION_sRGB;
        vips_image_set_int(copy, "page-height", height);
        int delays[2] = {100, 100};
        vips_image_set_array_int(copy, "delay", delays, 2);
        status = vips_image_write_to_buffer(copy, ".gif", out, length, NULL);
    }
    VipsImage *all[] = {first, second, second_rgb, pages, copy};
    for (int i = 0; i < 5; i++) if (all[i]) g_object_unref(all[i]);
    return status;
}

double syf_alpha(const void *bytes, size_t length, int x, int y) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    double *vector = NULL, alpha = -1;
    int n = 0;
    if (vips_image_hasalpha(image) && vips_getpoint(image, &vector, &n, x, y, NULL) == 0) {
        alpha = vector[n - 1];
        g_free(vector);
    }
    g_object_unref(image);
    return alpha;
}

int syf_transparent(int width, int height, void **out, size_t *length) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    // Red, wholly transparent: a decoder that drops the alpha instead of laying the image on a background shows red.
    VipsImage *black = NULL, *red = NULL;
    double colour[] = {255, 0, 0, 0};
    int status = vips_black(&black, width, height, "bands", 4, NULL);
    if (status == 0) status = vips_linear(black, &red, (double[]){1, 1, 1, 1}, colour, 4, "uchar", TRUE, NULL);
    if (status == 0) {
        red->Type = VIPS_INTERPRETATION_sRGB;
        status = vips_image_write_to_buffer(red, ".png", out, length, NULL);
    }
    if (black) g_object_unref(black);
    if (red) g_object_unref(red);
    return status;
}

int syf_decode(const char *path, int size) {
    if (VIPS_INIT("switchyard-fixtures")) return -1;
    VipsImage *header = vips_image_new_from_file(path, NULL), *image = NULL;
    if (!header) return -1;
    const char *loader = NULL;  // the header's own loader's nickname ("jpegload"), not sniffed again
    int is_jpeg = vips_image_get_string(header, VIPS_META_LOADER, &loader) == 0 && strstr(loader, "jpeg");
    int longest = VIPS_MAX(vips_image_get_width(header), vips_image_get_height(header));
    g_object_unref(header);
    int status;
    if (is_jpeg) {
        int shrink = 8;
        while (shrink > 1 && longest / shrink < size) shrink /= 2;
        status = vips_jpegload(path, &image, "shrink", shrink, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    } else {
        image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        status = image ? 0 : -1;
    }
    double mean = 0;
    if (status == 0) status = vips_avg(image, &mean, NULL);
    if (image) g_object_unref(image);
    return status;
}

void syf_free(void *bytes) { g_free(bytes); }
#endif
