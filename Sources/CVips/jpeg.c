// The direct JPEG path (declared in CVips.h): a JPEG decoded with libjpeg into memory on the calling thread, and
// a thumbnail computed and encoded as a JPEG on the calling thread. libvips' loader and saver run the same libjpeg
// on a worker thread of libvips and hand each strip of pixels to the caller's thread and back; a render that stays
// on one thread keeps its processor busy instead of waiting for those hand-offs.
//
// libjpeg is loaded (`dlopen`) by `sy__jpeg_load`, the library libvips itself decodes JPEG with: the same
// library, already in the process. Its pointers are written once, before `sy_vips_start` returns, and only read
// afterwards. Every libjpeg failure is reported through libvips' error buffer, as libvips' own loader would.
#ifdef SWITCHYARD_IMAGES
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // RTLD_DEFAULT
#endif
#include "symbols.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#define SY_JPEG_SYMBOLS(X) \
    X(jpeg_std_error) X(jpeg_CreateDecompress) X(jpeg_read_header) X(jpeg_calc_output_dimensions) \
    X(jpeg_start_decompress) X(jpeg_read_scanlines) X(jpeg_finish_decompress) X(jpeg_destroy_decompress) \
    X(jpeg_resync_to_restart) X(jpeg_CreateCompress) X(jpeg_set_defaults) X(jpeg_set_quality) \
    X(jpeg_start_compress) X(jpeg_write_scanlines) X(jpeg_finish_compress) X(jpeg_destroy_compress) \
    X(jpeg_has_multiple_scans)

#define SY_JPEG_POINTER(name) static __typeof__(name) *sy_j_##name;
SY_JPEG_SYMBOLS(SY_JPEG_POINTER)
#undef SY_JPEG_POINTER

// The library whose headers this file was compiled with: its structures' layout is the one these headers give.
#if defined(__APPLE__)
#define SY_JPEG_LIBRARY (JPEG_LIB_VERSION >= 80 ? "libjpeg.8.dylib" : "libjpeg.62.dylib")
#else
#define SY_JPEG_LIBRARY (JPEG_LIB_VERSION >= 80 ? "libjpeg.so.8" : "libjpeg.so.62")
#endif

// MARK: errors

/// libjpeg's error manager: an error jumps back to the call that set `exit`, with libjpeg's message kept;
/// warnings (data libjpeg recovers from) are counted, not printed, and not fatal below
/// `SY_JPEG_MAXIMUM_WARNINGS`, as libvips' loader treats them when it fails on errors only.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf exit;
    char message[JMSG_LENGTH_MAX];
} SYJpegError;

static void sy_jpeg_error_exit(j_common_ptr info) {
    SYJpegError *error = (SYJpegError *)info->err;
    error->manager.format_message(info, error->message);
    longjmp(error->exit, 1);
}

/// Corrupt data that libjpeg recovers from warns; past this many warnings it is an error (as in libvips' loader: a
/// crafted file can warn at every block and take the decoder's time without end).
enum { SY_JPEG_MAXIMUM_WARNINGS = 100 };

static void sy_jpeg_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;
    if (++info->err->num_warnings >= SY_JPEG_MAXIMUM_WARNINGS) {
        SYJpegError *error = (SYJpegError *)info->err;
        snprintf(error->message, sizeof error->message, "the JPEG data is corrupt (%d warnings)",
            SY_JPEG_MAXIMUM_WARNINGS);
        longjmp(error->exit, 1);
    }
}

static void sy_jpeg_output_message(j_common_ptr info) {}

static void sy_jpeg_error_init(SYJpegError *error) {
    sy_j_jpeg_std_error(&error->manager);
    error->manager.error_exit = sy_jpeg_error_exit;
    error->manager.emit_message = sy_jpeg_emit_message;
    error->manager.output_message = sy_jpeg_output_message;
    error->message[0] = 0;
}

/// Whether libjpeg's structures, as these headers lay them out, are the loaded library's: libjpeg checks the version
/// and structure size it is given, and fails the creation otherwise.
static int sy_jpeg_layout_matches(void) {
    struct jpeg_decompress_struct decompress;
    struct jpeg_compress_struct compress;
    SYJpegError error;
    volatile int created = 0;
    decompress.err = &error.manager;
    compress.err = &error.manager;
    sy_jpeg_error_init(&error);
    if (setjmp(error.exit)) {
        if (created) sy_j_jpeg_destroy_decompress(&decompress);
        return 0;
    }
    sy_j_jpeg_CreateDecompress(&decompress, JPEG_LIB_VERSION, sizeof decompress);
    created = 1;
    sy_j_jpeg_CreateCompress(&compress, JPEG_LIB_VERSION, sizeof compress);
    sy_j_jpeg_destroy_compress(&compress);
    sy_j_jpeg_destroy_decompress(&decompress);
    return 1;
}

int sy__jpeg_load(void) {
    // The library of these headers' version by name; else the libjpeg libvips brought into the process.
    void *library = dlopen(SY_JPEG_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) library = RTLD_DEFAULT;
#define SY_JPEG_RESOLVE(name) \
    if (!(sy_j_##name = (__typeof__(sy_j_##name))dlsym(library, #name))) return 0;
    SY_JPEG_SYMBOLS(SY_JPEG_RESOLVE)
#undef SY_JPEG_RESOLVE
    return sy_jpeg_layout_matches();
}

// MARK: decoding

/// A libjpeg source reading through a render's reader, 64 KiB at a time: a read refused (the render cancelled)
/// or failed is an error; the end of the data before the image's end is one too (the data is truncated).
typedef struct {
    struct jpeg_source_mgr manager;
    SYReader *reader;
    JOCTET buffer[65536];
} SYJpegSource;

static void sy_jpeg_source_init(j_decompress_ptr info) {}

static boolean sy_jpeg_source_fill(j_decompress_ptr info) {
    SYJpegSource *source = (SYJpegSource *)info->src;
    gint64 count = sy__reader_read(source->reader, source->buffer, sizeof source->buffer);
    if (count < 0) ERREXIT(info, JERR_FILE_READ);
    if (count == 0) ERREXIT(info, JERR_INPUT_EOF);
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = (size_t)count;
    return TRUE;
}

static void sy_jpeg_source_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *manager = info->src;
    while (count > (long)manager->bytes_in_buffer) {
        count -= (long)manager->bytes_in_buffer;
        sy_jpeg_source_fill(info);
    }
    if (count > 0) {
        manager->next_input_byte += count;
        manager->bytes_in_buffer -= (size_t)count;
    }
}

static void sy_jpeg_source_term(j_decompress_ptr info) {}

/// What a decode holds, for its cleanup after a jump from libjpeg.
typedef struct {
    struct jpeg_decompress_struct info;
    SYJpegError error;
    SYJpegSource source;
    VipsImage *image;
} SYJpegDecode;

/// Decodes at 1/`shrink` into a new memory image (`decode->image`). 0 on success, 1 when this path does not take
/// the image (other than grey, YCbCr or RGB, or more than `max_bytes` of pixels), -1 on failure (libvips' error
/// buffer says why).
static int sy_jpeg_decode(SYJpegDecode *decode, int shrink, int64_t max_bytes) {
    struct jpeg_decompress_struct *info = &decode->info;
    info->err = &decode->error.manager;
    sy_jpeg_error_init(&decode->error);
    if (setjmp(decode->error.exit)) {
        vips_error("jpegload", "%s", decode->error.message);
        return -1;
    }
    sy_j_jpeg_CreateDecompress(info, JPEG_LIB_VERSION, sizeof *info);
    decode->source.manager = (struct jpeg_source_mgr){
        .init_source = sy_jpeg_source_init,
        .fill_input_buffer = sy_jpeg_source_fill,
        .skip_input_data = sy_jpeg_source_skip,
        .resync_to_restart = sy_j_jpeg_resync_to_restart,
        .term_source = sy_jpeg_source_term,
    };
    info->src = &decode->source.manager;
    sy_j_jpeg_read_header(info, TRUE);
    J_COLOR_SPACE space = info->jpeg_color_space;
    if (space != JCS_GRAYSCALE && space != JCS_YCbCr && space != JCS_RGB) return 1;  // CMYK, YCCK, unknown
    int grey = space == JCS_GRAYSCALE;
    info->out_color_space = grey ? JCS_GRAYSCALE : JCS_RGB;
    info->scale_num = 1;
    info->scale_denom = (unsigned)(shrink == 2 || shrink == 4 || shrink == 8 ? shrink : 1);
    sy_j_jpeg_calc_output_dimensions(info);
    int width = (int)info->output_width, height = (int)info->output_height, bands = grey ? 1 : 3;
    if ((int64_t)width * height * bands > max_bytes) return 1;
    // A progressive JPEG keeps every coefficient of the whole image, whatever the scale: 2 bytes each, up to 3 per
    // pixel. libvips' loader is left the large ones, as before this path.
    if (sy_j_jpeg_has_multiple_scans(info)
        && (int64_t)info->image_width * info->image_height * info->num_components * 2 > max_bytes) {
        return 1;
    }
    if (!(decode->image = vips_image_new_memory())) return -1;
    vips_image_init_fields(decode->image, width, height, bands, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
        grey ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB, 1.0, 1.0);
    if (vips_image_write_prepare(decode->image)) return -1;
    sy_j_jpeg_start_decompress(info);
    while (info->output_scanline < info->output_height) {
        JSAMPROW rows[16];
        int count = VIPS_MIN(16, height - (int)info->output_scanline);
        for (int row = 0; row < count; row++) {
            rows[row] = decode->image->data + (size_t)((int)info->output_scanline + row) * (size_t)(width * bands);
        }
        sy_j_jpeg_read_scanlines(info, rows, (JDIMENSION)count);
    }
    sy_j_jpeg_finish_decompress(info);
    return 0;
}

int sy_jpeg_thumbnail_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop,
    int shrink, int orientation, int64_t max_bytes) {
    if (!sy_jpeg_available()) return 1;
    SYJpegDecode *decode = calloc(1, sizeof *decode);
    if (!decode) return 1;
    decode->source.reader = reader;
    sy__reader_rewind(reader);
    int status = sy_jpeg_decode(decode, shrink, max_bytes);
    sy_j_jpeg_destroy_decompress(&decode->info);
    VipsImage *image = decode->image;
    free(decode);
    sy__reader_rewind(reader);
    if (status != 0) {
        if (image) g_object_unref(image);
        return status;
    }
    // Turned after resizing, by libvips' autorot on the lazy result: libvips' thumbnail would copy its result to
    // memory first, on a worker thread of its own. A turned image is cropped after it is turned, as libvips'
    // thumbnail does: resized to cover the box uncropped (`crop` ALL), turned, then cropped. Cropping first would
    // leave an odd pixel of slack on the other side once the image is mirrored.
    int swaps = orientation >= 5 && orientation <= 8;
    int turns = orientation > 1 && orientation <= 8;
    int crops = crop != VIPS_INTERESTING_NONE;
    VipsImage *thumbnail = NULL;
    status = vips_thumbnail_image(image, &thumbnail, swaps ? height : width, "height", swaps ? width : height,
        "size", size, "crop", turns && crops ? VIPS_INTERESTING_ALL : crop, "no_rotate", TRUE, NULL);
    g_object_unref(image);
    if (status != 0 || !turns) {
        *out = thumbnail;
        return status;
    }
    // On a copy: an operation's output is not this caller's to change (libvips' cache could share it).
    VipsImage *tagged = NULL;
    status = vips_copy(thumbnail, &tagged, NULL);
    g_object_unref(thumbnail);
    if (status != 0) return status;
    vips_image_set_int(tagged, VIPS_META_ORIENTATION, orientation);
    VipsImage *turned = NULL;
    status = vips_autorot(tagged, &turned, NULL);
    g_object_unref(tagged);
    if (status != 0 || !crops) {
        *out = turned;
        return status;
    }
    int across = vips_image_get_width(turned), down = vips_image_get_height(turned);
    status = vips_smartcrop(turned, out, VIPS_MIN(width, across), VIPS_MIN(height, down),
        "interesting", crop, NULL);
    g_object_unref(turned);
    return status;
}

// MARK: encoding

/// A libjpeg destination growing a `malloc` buffer (which `g_free` frees: glib's allocator is the system's).
typedef struct {
    struct jpeg_destination_mgr manager;
    JOCTET *bytes;
    size_t capacity;
} SYJpegDestination;

static void sy_jpeg_destination_init(j_compress_ptr info) {
    SYJpegDestination *destination = (SYJpegDestination *)info->dest;
    destination->manager.next_output_byte = destination->bytes;
    destination->manager.free_in_buffer = destination->capacity;
}

static boolean sy_jpeg_destination_empty(j_compress_ptr info) {
    SYJpegDestination *destination = (SYJpegDestination *)info->dest;
    size_t used = destination->capacity;
    JOCTET *grown = realloc(destination->bytes, used * 2);
    if (!grown) ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
    destination->bytes = grown;
    destination->capacity = used * 2;
    destination->manager.next_output_byte = grown + used;
    destination->manager.free_in_buffer = destination->capacity - used;
    return TRUE;
}

static void sy_jpeg_destination_term(j_compress_ptr info) {}

/// What an encode holds, for its cleanup after a jump from libjpeg.
typedef struct {
    struct jpeg_compress_struct info;
    SYJpegError error;
    SYJpegDestination destination;
    VipsRegion *region;
} SYJpegEncode;

static int sy_jpeg_encode(SYJpegEncode *encode, VipsImage *image, int quality, const int *cancelled) {
    struct jpeg_compress_struct *info = &encode->info;
    info->err = &encode->error.manager;
    sy_jpeg_error_init(&encode->error);
    if (setjmp(encode->error.exit)) {
        vips_error("jpegsave", "%s", encode->error.message);
        return -1;
    }
    sy_j_jpeg_CreateCompress(info, JPEG_LIB_VERSION, sizeof *info);
    encode->destination.capacity = 16384;
    if (!(encode->destination.bytes = malloc(encode->destination.capacity))) {
        vips_error("jpegsave", "%s", "out of memory");
        return -1;
    }
    encode->destination.manager = (struct jpeg_destination_mgr){
        .init_destination = sy_jpeg_destination_init,
        .empty_output_buffer = sy_jpeg_destination_empty,
        .term_destination = sy_jpeg_destination_term,
    };
    info->dest = &encode->destination.manager;
    int width = vips_image_get_width(image), height = vips_image_get_height(image);
    int bands = vips_image_get_bands(image);
    info->image_width = (JDIMENSION)width;
    info->image_height = (JDIMENSION)height;
    info->input_components = bands;
    info->in_color_space = bands == 1 ? JCS_GRAYSCALE : JCS_RGB;
    sy_j_jpeg_set_defaults(info);
    sy_j_jpeg_set_quality(info, quality, TRUE);
    info->optimize_coding = TRUE;
    if (quality >= 90 && bands == 3) {  // as libvips: chroma subsampled (4:2:0) below quality 90 only
        for (int component = 0; component < 3; component++) {
            info->comp_info[component].h_samp_factor = 1;
            info->comp_info[component].v_samp_factor = 1;
        }
    }
    if (!(encode->region = vips_region_new(image))) return -1;
    sy_j_jpeg_start_compress(info, TRUE);
    for (int top = 0; top < height; top += 16) {
        if (sy_flag_is_set(cancelled)) {
            vips_error("jpegsave", "%s", "cancelled");
            return -1;
        }
        VipsRect strip = {0, top, width, VIPS_MIN(16, height - top)};
        if (vips_region_prepare(encode->region, &strip)) return -1;
        JSAMPROW rows[16];
        VipsRegion *region = encode->region;  // 8-bit pixels, the strip as wide as the image
        for (int row = 0; row < strip.height; row++) {
            rows[row] = (JSAMPROW)region->data + (size_t)(top + row - region->valid.top) * VIPS_REGION_LSKIP(region);
        }
        sy_j_jpeg_write_scanlines(info, rows, (JDIMENSION)strip.height);
    }
    sy_j_jpeg_finish_compress(info);
    return 0;
}

int sy_jpeg_encode_image(VipsImage *image, int quality, const int *cancelled, void **out, size_t *length) {
    int bands = vips_image_get_bands(image);
    if (!sy_jpeg_available() || vips_image_get_format(image) != VIPS_FORMAT_UCHAR || (bands != 1 && bands != 3)) {
        return 1;
    }
    SYJpegEncode *encode = calloc(1, sizeof *encode);
    if (!encode) return 1;
    int status = sy_jpeg_encode(encode, image, quality, cancelled);
    size_t used = encode->destination.capacity - encode->destination.manager.free_in_buffer;
    sy_j_jpeg_destroy_compress(&encode->info);
    if (encode->region) g_object_unref(encode->region);
    if (status == 0) {
        *out = encode->destination.bytes;
        *length = used;
    } else {
        free(encode->destination.bytes);
    }
    free(encode);
    return status;
}
#endif
