// The wrappers declared in CVips.h, calling libvips and glib through pointers that `sy_vips_start` resolves once
// libvips is loaded (symbols.h). The pointers are written once, before `sy_vips_start` returns, and only read
// afterwards: a wrapper that calls libvips may be called only after it returned 0 (CVips.h names the few that do
// not). A render's cancellation, and the reader a decode reads through, are in cancellation.c.
// Empty without the package's Images trait (no libvips headers); SwitchyardImages then does not import CVips.
#ifdef SWITCHYARD_IMAGES
#define SY_DEFINE_SYMBOLS
#include "symbols.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <malloc.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#endif

// MARK: loading

static const char *sy_load_failure;
static char sy_load_message[512];

/// Loads libvips (Debian's libvips42; Homebrew's on macOS; the file `SWITCHYARD_LIBVIPS` names, when set) and
/// resolves every pointer; 0 on success.
static int sy_load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {
        "libvips.42.dylib", "/opt/homebrew/lib/libvips.42.dylib", "/usr/local/lib/libvips.42.dylib"};
#else
    static const char *const names[] = {"libvips.so.42"};
#endif
    const char *chosen = getenv("SWITCHYARD_LIBVIPS");
    int uses_chosen = chosen && *chosen;
    size_t count = uses_chosen ? 1 : sizeof names / sizeof names[0];
    void *library = NULL;
    char reason_shown[256] = "not found";
    for (size_t index = 0; index < count && !library; index++) {
        library = dlopen(uses_chosen ? chosen : names[index], RTLD_NOW | RTLD_GLOBAL);
        const char *reason = library ? NULL : dlerror();
        // The first place's reason (where a missing library is looked for first), unless a later place has the
        // file and fails to load it (another architecture, a missing dependency): that reason says more.
        int missing = reason && (strstr(reason, "no such file") || strstr(reason, "No such file"));
        if (reason && (index == 0 || !missing)) snprintf(reason_shown, sizeof reason_shown, "%s", reason);
    }
    if (!library) {
        snprintf(sy_load_message, sizeof sy_load_message,
            "libvips could not be loaded (%s); on Debian: apt-get install libvips42, or "
            "Scripts/install-system-packages.sh; SWITCHYARD_LIBVIPS may name the library's file",
            reason_shown);
        sy_load_failure = sy_load_message;
        return -1;
    }
#define SY_RESOLVE(name)                                                                  \
    if (!(sy_p_##name = (__typeof__(sy_p_##name))dlsym(library, #name))) {                \
        sy_load_failure = "the installed libvips lacks " #name " (libvips 8.14 or later is needed)"; \
        return -1;                                                                        \
    }
    SY_SYMBOLS(SY_RESOLVE)
#undef SY_RESOLVE
    return 0;
}

const char *sy_vips_load_error(void) { return sy_load_failure; }

static void sy_vips_discard_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {}

/// Whether renders' images are kept as they are built (the emission hook is installed): written once by
/// `sy_vips_start`, before it returns.
static int sy_renders_killable;

/// Whether libjpeg was loaded for the direct JPEG path: written once by `sy_vips_start`, before it returns.
static int sy_jpeg_direct;

int sy_vips_start(const char *program, int concurrency, int allow_untrusted) {
    if (sy_load() != 0) return -1;
    if (vips_init(program) != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, sy_vips_discard_log, NULL);
    vips_concurrency_set(concurrency);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(allow_untrusted ? FALSE : TRUE);
    sy_renders_killable = sy__install_render_hook();
    sy_jpeg_direct = sy__jpeg_load();
    return 0;
}

int sy_vips_renders_killable(void) { return sy_renders_killable; }

int sy_jpeg_available(void) { return sy_jpeg_direct; }

// MARK: loaders and headers

VipsImage *sy_vips_header_buffer(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", NULL);
}

const char *sy_vips_untrusted_loader(const char *name) {
    GType type = g_type_from_name(name);
    if (!type || !g_type_is_a(type, VIPS_TYPE_OPERATION)) return NULL;
    gpointer class = g_type_class_ref(type);
    const char *nickname = (VIPS_OPERATION_CLASS(class)->flags & VIPS_OPERATION_UNTRUSTED)
        ? VIPS_OBJECT_CLASS(class)->nickname : NULL;
    g_type_class_unref(class);  // classes are static once created: the nickname stays valid
    return nickname;
}

const char *sy_vips_find_load(const char *path) { return vips_foreign_find_load(path); }

const char *sy_vips_find_load_buffer(const void *bytes, size_t length) {
    return vips_foreign_find_load_buffer(bytes, length);
}

const char *sy_vips_find_load_reader(SYReader *reader) {
    VipsSource *source = sy__source_new(reader);
    if (!source) return NULL;
    const char *name = vips_foreign_find_load_source(source);
    g_object_unref(source);
    return name;
}

VipsImage *sy_vips_header_reader(SYReader *reader) {
    VipsSource *source = sy__source_new(reader);
    if (!source) return NULL;
    VipsImage *image = vips_image_new_from_source(source, "", NULL);
    g_object_unref(source);  // the image holds its own reference while it needs it
    return image;
}

// MARK: thumbnails

int sy_vips_thumbnail_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop, int fail_on,
    int to_srgb, int jpeg_shrink) {
    VipsSource *source = sy__source_new(reader);
    if (!source) return -1;
    int status;
    if (jpeg_shrink > 1) {
        VipsImage *image = vips_image_new_from_source(
            source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, "shrink", jpeg_shrink, NULL);
        g_object_unref(source);  // the image holds its own reference while it needs it
        if (!image) return -1;
        status = to_srgb
            ? vips_thumbnail_image(image, out, width, "height", height, "size", size, "crop", crop,
                  "export_profile", "srgb", NULL)
            : vips_thumbnail_image(image, out, width, "height", height, "size", size, "crop", crop, NULL);
        g_object_unref(image);
        return status;
    }
    status = to_srgb
        ? vips_thumbnail_source(source, out, width, "height", height, "size", size, "crop", crop,
              "fail_on", fail_on, "export_profile", "srgb", NULL)
        : vips_thumbnail_source(source, out, width, "height", height, "size", size, "crop", crop,
              "fail_on", fail_on, NULL);
    g_object_unref(source);  // the image holds its own reference while it needs it
    return status;
}

int sy_vips_thumbnail_flattened_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop,
    int fail_on, double red, double green, double blue, double grey) {
    VipsSource *source = sy__source_new(reader);
    if (!source) return -1;
    VipsImage *image =
        vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
    g_object_unref(source);  // the image holds its own reference while it needs it
    if (!image) return -1;
    VipsImage *flat = NULL;
    int status = sy_vips_flatten(image, &flat, red, green, blue, grey);
    g_object_unref(image);
    if (status != 0) return status;
    status = vips_thumbnail_image(flat, out, width, "height", height, "size", size, "crop", crop, NULL);
    g_object_unref(flat);
    return status;
}

int sy_vips_width(VipsImage *image) { return vips_image_get_width(image); }
int sy_vips_height(VipsImage *image) { return vips_image_get_height(image); }
int sy_vips_orientation(VipsImage *image) { return vips_image_get_orientation(image); }
VipsInterpretation sy_vips_interpretation(VipsImage *image) { return vips_image_get_interpretation(image); }
int sy_vips_has_alpha(VipsImage *image) { return vips_image_hasalpha(image); }

int sy_vips_has_profile(VipsImage *image) { return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0; }

int sy_vips_to_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

int sy_vips_flatten(VipsImage *in, VipsImage **out, double red, double green, double blue, double grey) {
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

// MARK: encoders

int sy_vips_jpeg(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_jpegsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "optimize_coding", TRUE, "interlace", FALSE, NULL);
}

int sy_vips_png(VipsImage *in, void **out, size_t *length, int strip) {
    return vips_pngsave_buffer(in, out, length, "strip", strip, "compression", 6, NULL);
}

int sy_vips_webp(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_webpsave_buffer(in, out, length, "Q", quality, "strip", strip, NULL);
}

int sy_vips_avif(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_heifsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1, NULL);
}

int sy_vips_heic(VipsImage *in, void **out, size_t *length, int quality, int strip) {
    return vips_heifsave_buffer(
        in, out, length, "Q", quality, "strip", strip, "compression", VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, NULL);
}

char *sy_vips_take_error(void) { return vips_error_buffer_copy(); }

void sy_free(void *pointer) { g_free(pointer); }

/// Whether the installed libvips can encode `suffix`: a 1 × 1 image is encoded.
static int sy_vips_can_save(const char *suffix) {
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

int sy_vips_can_save_niced(const char *suffix, int niceness) {
    SYProbe probe = {suffix, niceness, 0};
    pthread_t thread;
    if (pthread_create(&thread, NULL, sy_probe_main, &probe) != 0) return sy_vips_can_save(suffix);
    pthread_join(thread, NULL);
    return probe.result;
}

void sy_vips_unref(VipsImage *image) { g_object_unref(image); }

// MARK: the process and its threads

int sy_limit_malloc_arenas(int count) {
#ifdef __linux__
    return mallopt(M_ARENA_MAX, count);
#else
    return 0;
#endif
}

int sy_thread_lower_scheduling(int idle, int niceness) {
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
