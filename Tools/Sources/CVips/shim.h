// libvips (Debian's libvips-dev, 8.14; installed by Scripts/install-system-packages.sh), for SwitchyardImages.
//
// Swift cannot call C's variadic functions, and most of libvips' operations take their options as a NULL-ended
// list of name/value pairs: each operation SwitchyardImages uses is wrapped below in a fixed-argument inline
// function. They only forward; every decision (limits, formats, options) is made in Swift. One more piece is
// written here because libvips calls it back on its own threads: the source a decode reads through, which fails
// its next read once the render is cancelled.
#ifndef SWITCHYARD_CVIPS_SHIM_H
#define SWITCHYARD_CVIPS_SHIM_H

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <vips/vips.h>
#ifdef __linux__
#include <malloc.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#endif
#include <unistd.h>

/// `vips_init`, then the settings for many images processed in parallel, each by one thread: `concurrency`
/// threads per image, libvips' operation cache off (the pipeline caches results itself), and the loaders libvips
/// marks untrusted (ImageMagick, PDF, ...) blocked unless `allow_untrusted`. 0 on success.
static inline void sy_vips_discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/// Also silences libvips' warnings, which it prints to standard error (a tolerated flaw in an image, a truncated
/// read): the pipeline reports what it refuses as errors, and a command's output stays its own.
static inline int sy_vips_start(const char *program, int concurrency, int allow_untrusted) {
    if (vips_init(program) != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, sy_vips_discard_log, NULL);
    vips_concurrency_set(concurrency);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(allow_untrusted ? FALSE : TRUE);
    return 0;
}

/// The image's header, read without decoding its pixels (libvips' loaders are lazy). NULL on failure.
static inline VipsImage *sy_vips_header_buffer(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", NULL);
}

/// The nickname of the loader class `name` (as `vips_foreign_find_load` returns it) if libvips marks it untrusted
/// (blocked at start: ImageMagick's, PDF's, SVG's...), else NULL. The string lives as long as the process.
static inline const char *sy_vips_untrusted_loader(const char *name) {
    GType type = g_type_from_name(name);
    if (!type || !g_type_is_a(type, VIPS_TYPE_OPERATION)) return NULL;
    gpointer class = g_type_class_ref(type);
    const char *nickname = (VIPS_OPERATION_CLASS(class)->flags & VIPS_OPERATION_UNTRUSTED)
        ? VIPS_OBJECT_CLASS(class)->nickname : NULL;
    g_type_class_unref(class);  // classes are static once created: the nickname stays valid
    return nickname;
}

/// A flag for cancelling a render: set by any thread, read by the decoding thread. Free with `g_free`.
static inline int *sy_flag_new(void) { return g_new0(int, 1); }
static inline void sy_flag_set(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }
static inline int sy_flag_is_set(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

/// What a decode reads: a file's descriptor (`descriptor` >= 0) or bytes in memory, `length` bytes long, read
/// from `offset`; each read first checks `cancelled`. Used by one decode at a time (libvips reads a source from
/// one thread at a time).
typedef struct {
    int descriptor;
    const unsigned char *bytes;
    gint64 length;
    gint64 offset;
    const int *cancelled;
} SYReader;

/// A read fails once the render is cancelled: the decode stops at its next read (every few KiB of the encoded
/// image) instead of running to the end.
static gint64 sy_reader_read(VipsSourceCustom *source, void *buffer, gint64 length, SYReader *reader) {
    if (sy_flag_is_set(reader->cancelled)) return -1;
    gint64 count = reader->length - reader->offset;
    if (count > length) count = length;
    if (count <= 0) return 0;
    if (reader->descriptor >= 0) {
        ssize_t done;
        do { done = pread(reader->descriptor, buffer, (size_t)count, (off_t)reader->offset); } while (done < 0 && errno == EINTR);
        if (done < 0) return -1;
        count = done;
    } else {
        memcpy(buffer, reader->bytes + reader->offset, (size_t)count);
    }
    reader->offset += count;
    return count;
}

static gint64 sy_reader_seek(VipsSourceCustom *source, gint64 offset, int whence, SYReader *reader) {
    gint64 base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = reader->offset; break;
    case SEEK_END: base = reader->length; break;
    default: return -1;
    }
    gint64 target = base + offset;
    if (target < 0 || target > reader->length) return -1;
    reader->offset = target;
    return target;
}

/// A thumbnail `width` × `height` (shrink-on-load, EXIF orientation applied) of the image `reader` reads; with
/// `to_srgb`, colour managed from the embedded profile to sRGB. `size` is a VipsSize, `crop` a VipsInteresting,
/// `fail_on` a VipsFailOn. The image is lazy and reads from `reader` until it is unreferenced: `reader` must
/// outlive it. 0 on success.
/// A libvips source that reads through `reader` (which must outlive it). NULL on failure.
static inline VipsSource *sy_source_new(SYReader *reader) {
    VipsSourceCustom *source = vips_source_custom_new();
    if (!source) return NULL;
    g_signal_connect(source, "read", G_CALLBACK(sy_reader_read), reader);
    g_signal_connect(source, "seek", G_CALLBACK(sy_reader_seek), reader);
    return VIPS_SOURCE(source);
}

/// The name of the loader class for what `reader` reads (sniffed from its first bytes), or NULL.
static inline const char *sy_vips_find_load_reader(SYReader *reader) {
    VipsSource *source = sy_source_new(reader);
    if (!source) return NULL;
    const char *name = vips_foreign_find_load_source(source);
    g_object_unref(source);
    return name;
}

/// The header of the image `reader` reads, without decoding its pixels. NULL on failure; the image reads from
/// `reader` until it is unreferenced.
static inline VipsImage *sy_vips_header_reader(SYReader *reader) {
    VipsSource *source = sy_source_new(reader);
    if (!source) return NULL;
    VipsImage *image = vips_image_new_from_source(source, "", NULL);
    g_object_unref(source);  // the image holds its own reference while it needs it
    return image;
}

static inline int sy_vips_thumbnail_reader(
    SYReader *reader, VipsImage **out, int width, int height, int size, int crop, int fail_on, int to_srgb) {
    VipsSource *source = sy_source_new(reader);
    if (!source) return -1;
    int status = to_srgb
        ? vips_thumbnail_source(source, out, width, "height", height, "size", size, "crop", crop,
              "fail_on", fail_on, "export_profile", "srgb", NULL)
        : vips_thumbnail_source(source, out, width, "height", height, "size", size, "crop", crop,
              "fail_on", fail_on, NULL);
    g_object_unref(source);  // the image holds its own reference while it needs it
    return status;
}

/// Whether the image carries an ICC profile (its thumbnail is then colour managed to sRGB).
static inline int sy_vips_has_profile(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0;
}

/// The image in sRGB, when it is in another colour space (a grey or CMYK source without an ICC profile).
static inline int sy_vips_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

/// The image without its alpha channel, laid on a background of `grey` (one band and alpha) or `red`, `green`,
/// `blue` (three bands and alpha), each 0–255 and scaled to the image's depth (`max_alpha` 255 or 65535).
static inline int sy_vips_flatten(VipsImage *in, VipsImage **out, double red, double green, double blue, double grey) {
    int colour_bands = vips_image_get_bands(in) - 1;
    double max_alpha = vips_image_get_format(in) == VIPS_FORMAT_USHORT ? 65535.0 : 255.0;
    double scale = max_alpha / 255.0;
    double values[16];
    if (colour_bands < 1 || colour_bands > 16) return -1;
    for (int band = 0; band < colour_bands; band++) {
        // Grey for one band; red, green, blue for three or more (extra bands beyond them take blue's value).
        double value = colour_bands < 3 ? grey : band == 0 ? red : band == 1 ? green : blue;
        values[band] = value * scale;
    }
    VipsArrayDouble *background = vips_array_double_new(values, colour_bands);
    int status = vips_flatten(in, out, "background", background, "max_alpha", max_alpha, NULL);
    vips_area_unref(VIPS_AREA(background));
    return status;
}

/// Encoders: the bytes go to `*out` (free with g_free), `*length` bytes long. 0 on success.
static inline int sy_vips_jpeg(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_jpegsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "optimize_coding", TRUE, "interlace", FALSE, NULL);
}

static inline int sy_vips_png(VipsImage *in, void **out, size_t *length, int strip) {
    return vips_pngsave_buffer(in, out, length, "strip", strip, "compression", 6, NULL);
}

static inline int sy_vips_webp(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_webpsave_buffer(in, out, length, "Q", quality, "strip", strip, NULL);
}

static inline int sy_vips_avif(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_heifsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
}

static inline int sy_vips_heic(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_heifsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
}

/// The error messages libvips recorded, copied and cleared in one step under its lock (free with g_free).
static inline char *sy_vips_take_error(void) { return vips_error_buffer_copy(); }

/// Whether the installed libvips can encode `suffix` (".avif"): a 1 × 1 image is encoded (a saver can exist while
/// its codec's plugin is missing).
static inline int sy_vips_can_save(const char *suffix) {
    VipsImage *pixel = NULL;
    if (vips_black(&pixel, 1, 1, "bands", 3, NULL)) return 0;
    void *bytes = NULL;
    size_t length = 0;
    int status = vips_image_write_to_buffer(pixel, suffix, &bytes, &length, NULL);
    g_object_unref(pixel);
    g_free(bytes);
    if (status) g_free(vips_error_buffer_copy());
    return status == 0;
}

typedef struct {
    const char *suffix;
    int niceness;
    int result;
} SYProbe;

static void *sy_probe_main(void *argument) {
    SYProbe *probe = argument;
#ifdef __linux__
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), probe->niceness);
#endif
    probe->result = sy_vips_can_save(probe->suffix);
    return NULL;
}

/// `sy_vips_can_save` on a thread of its own at nice value `niceness`: libvips keeps the worker threads an encode
/// starts, for every later image, and they keep the scheduling of the thread that started them.
static inline int sy_vips_can_save_niced(const char *suffix, int niceness) {
    SYProbe probe = {suffix, niceness, 0};
    pthread_t thread;
    if (pthread_create(&thread, NULL, sy_probe_main, &probe) != 0) return sy_vips_can_save(suffix);
    pthread_join(thread, NULL);
    return probe.result;
}

static inline void sy_vips_unref(VipsImage *image) { g_object_unref(image); }

/// Limits glibc's malloc arenas to `count` (process-wide; Linux). 1 on success.
static inline int sy_limit_malloc_arenas(int count) {
#ifdef __linux__
    return mallopt(M_ARENA_MAX, count);
#else
    return 0;
#endif
}

/// Lowers the calling thread's scheduling (Linux: both are per thread): with `idle`, to `SCHED_IDLE` (it runs only
/// when no other thread wants the processor, and a waking thread of any other policy preempts it at once);
/// otherwise to nice value `niceness`. Threads the calling thread creates inherit it. Without privileges a thread
/// can only be made less favoured, never more again. 0 on success; -1 elsewhere than on Linux.
static inline int sy_thread_lower_scheduling(int idle, int niceness) {
#ifdef __linux__
    if (idle) {
        struct sched_param parameters = {0};
        return sched_setscheduler(0, 5 /* SCHED_IDLE, defined by glibc only under _GNU_SOURCE */, &parameters);
    }
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
#else
    return -1;
#endif
}
#endif
