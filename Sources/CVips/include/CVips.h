// libvips (Debian's libvips-dev, 8.14; installed by Scripts/install-system-packages.sh), for SwitchyardImages.
//
// libvips is not linked: `sy_vips_start` loads it (`dlopen`), which SwitchyardImages calls before its first use
// of libvips, so that a program linking SwitchyardImages loads libvips and the hundred libraries it needs only if
// it uses it (`switchyard fetch` does not pay for `switchyard thumbnails`). Every call into libvips goes through
// the functions below.
//
// Swift cannot call C's variadic functions, and most of libvips' operations take their options as a NULL-ended
// list of name/value pairs: each operation SwitchyardImages uses is wrapped in a fixed-argument function. They only
// forward; every decision (limits, formats, options) is made in Swift. Two more pieces are written here because
// libvips calls them back on its own threads: the source a decode reads through, which fails its next read once the
// render is cancelled, and the hook that keeps the images a render builds, whose evaluation the cancellation kills.
//
// Except for `sy_vips_start`, `sy_vips_load_error`, the flags, `sy_render_begin`/`sy_render_end`,
// `sy_limit_malloc_arenas` and `sy_thread_lower_scheduling`, a function here may be called only after
// `sy_vips_start` returned 0.
#ifndef SWITCHYARD_CVIPS_H
#define SWITCHYARD_CVIPS_H

#include <stddef.h>
#include <stdint.h>
#include <vips/vips.h>

/// Loads libvips, then `vips_init` and the settings for many images processed in parallel, each by one thread:
/// `concurrency` threads per image, libvips' operation cache off (the pipeline caches results itself), and the
/// loaders libvips marks untrusted (ImageMagick, PDF, ...) blocked unless `allow_untrusted`. Also silences
/// libvips' warnings, which it prints to standard error (a tolerated flaw in an image, a truncated read): the
/// pipeline reports what it refuses as errors, and a command's output stays its own. Also installs the hook that
/// keeps renders' images (`sy_render_begin`). Call once. 0 on success; otherwise `sy_vips_load_error` says why when
/// libvips could not be loaded.
int sy_vips_start(const char *program, int concurrency, int allow_untrusted);

/// Whether cancelling a render kills the evaluation of its images (1), or only refuses its reads (0: the installed
/// glib refused the hook on libvips' "postbuild" signal). Valid once `sy_vips_start` returned 0.
int sy_vips_renders_killable(void);

/// Why libvips could not be loaded (a library or a symbol missing), or NULL. Valid for the process's lifetime.
const char *sy_vips_load_error(void);

/// A flag for cancelling a render: set by any thread, read by the decoding thread. Setting it also kills the
/// evaluation of the images the render built (see `sy_render_begin`): libvips fails the render's next region of
/// pixels. Free with `sy_flag_free`, after `sy_render_end`.
int *sy_flag_new(void);
void sy_flag_free(int *flag);
void sy_flag_set(int *flag);
int sy_flag_is_set(const int *flag);

/// Starts keeping, for the render that `flag` cancels, every libvips image the calling thread builds (each
/// referenced) until `sy_render_end` on this thread, which releases them; one render at a time per thread. While
/// kept, an image is killed (`vips_image_set_kill`) when the flag is set, or at once if it already is. Call
/// `sy_render_end` before the reader the images read through is retired.
void sy_render_begin(int *flag);
void sy_render_end(int *flag);

/// Tests, debug builds only (SWITCHYARD_TEST_HOOKS; elsewhere it does nothing): `observer` is called with
/// `context` at the start of each read through a reader whose `cancelled` is `flag` (from `sy_flag_new`), before
/// the flag is checked, with the reader's offset and length, on the thread that reads. Set it before the flag is
/// given to a reader.
typedef void (*SYReadObserver)(void *context, gint64 offset, gint64 length);
void sy_flag_observe_reads(int *flag, SYReadObserver observer, void *context);

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

/// For Thread Sanitizer, which does not see the locks by which libvips reads a source from one thread at a time:
/// `sy_reader_publish` after filling in a reader, before libvips reads through it; `sy_reader_retire` after the
/// last image reading through it is released, before it is freed. No-ops in other builds.
void sy_reader_publish(SYReader *reader);
void sy_reader_retire(SYReader *reader);

/// The image's header, read without decoding its pixels (libvips' loaders are lazy). NULL on failure.
VipsImage *sy_vips_header_buffer(const void *bytes, size_t length);

/// The nickname of the loader class `name` (as `vips_foreign_find_load` returns it) if libvips marks it untrusted
/// (blocked at start: ImageMagick's, PDF's, SVG's...), else NULL. The string lives as long as the process.
const char *sy_vips_untrusted_loader(const char *name);

/// The name of the loader class for the file at `path` (by its contents, or its name for loaders that need it),
/// or for `length` bytes in memory; NULL if none.
const char *sy_vips_find_load(const char *path);
const char *sy_vips_find_load_buffer(const void *bytes, size_t length);

/// The name of the loader class for what `reader` reads (sniffed from its first bytes), or NULL.
const char *sy_vips_find_load_reader(SYReader *reader);

/// The header of the image `reader` reads, without decoding its pixels. NULL on failure; the image reads from
/// `reader` until it is unreferenced.
VipsImage *sy_vips_header_reader(SYReader *reader);

/// A thumbnail `width` × `height` (shrink-on-load, EXIF orientation applied) of the image `reader` reads; with
/// `to_srgb`, colour managed from the embedded profile to sRGB. `size` is a VipsSize, `crop` a VipsInteresting,
/// `fail_on` a VipsFailOn. A `jpeg_shrink` of 2, 4 or 8 (a JPEG only) decodes at that fraction of the size and
/// resizes the rest of the way; 0 or 1 leaves shrink-on-load to libvips. The image is lazy and reads from `reader`
/// until it is unreferenced: `reader` must outlive it. 0 on success.
int sy_vips_thumbnail_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop, int fail_on,
    int to_srgb, int jpeg_shrink);

/// As `sy_vips_thumbnail_reader` without colour management, for an image with alpha and a loader without
/// shrink-on-load (PNG): the whole image is laid on the background first (as `sy_vips_flatten`), then resized with
/// three bands instead of four premultiplied ones. Resizing is linear, so the result is the flattened thumbnail's
/// (within rounding). 0 on success.
int sy_vips_thumbnail_flattened_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop,
    int fail_on, double red, double green, double blue, double grey);

/// Whether the direct JPEG path is available: libjpeg, the library libvips decodes JPEG with, was loaded with the
/// structure layout CVips was compiled for. Valid once `sy_vips_start` returned 0.
int sy_jpeg_available(void);

/// The direct path's thumbnail of a JPEG: `reader`'s image decoded by libjpeg at 1/`shrink` (1, 2, 4 or 8) into
/// memory on the calling thread, given EXIF `orientation` (1–8), then resized as `sy_vips_thumbnail_reader` does,
/// without colour management (for an image without an ICC profile). Reads `reader` from its start, and leaves it
/// at its start. A premature end of the data or a libjpeg error fails it; libjpeg's warnings do not. 0 on success;
/// 1 when the path does not take the image (CMYK, YCCK or another colour space than grey, YCbCr and RGB; decoded
/// pixels over `max_bytes`; or libjpeg unavailable):
/// nothing is made, and `sy_vips_thumbnail_reader` is to be used; -1 on failure.
int sy_jpeg_thumbnail_reader(SYReader *reader, VipsImage **out, int width, int height, int size, int crop,
    int shrink, int orientation, int64_t max_bytes);

/// `image` encoded as a JPEG of `quality` (1–100) by libjpeg on the calling thread, its pixels computed strip by
/// strip on this thread too, as `sy_vips_jpeg` encodes it with metadata stripped (optimised Huffman tables, 4:2:0
/// chroma below quality 90). Stops with a failure once `cancelled` (a render's flag) is set. The bytes are freed
/// with `sy_free`. 0 on success; 1 when the path does not take the image (not 8-bit, not 1 or 3 bands, or libjpeg
/// unavailable): `sy_vips_jpeg` is to be used; -1 on failure (libvips' error buffer says why).
int sy_jpeg_encode_image(VipsImage *image, int quality, const int *cancelled, void **out, size_t *length);

/// The image's width, height and interpretation, and whether it has an alpha band.
int sy_vips_width(VipsImage *image);
int sy_vips_height(VipsImage *image);
/// The image's EXIF orientation, 1–8 (1 when it has none).
int sy_vips_orientation(VipsImage *image);
VipsInterpretation sy_vips_interpretation(VipsImage *image);
int sy_vips_has_alpha(VipsImage *image);

/// Whether the image carries an ICC profile (its thumbnail is then colour managed to sRGB).
int sy_vips_has_profile(VipsImage *image);

/// The image in sRGB, when it is in another colour space (a grey or CMYK source without an ICC profile).
int sy_vips_to_srgb(VipsImage *in, VipsImage **out);

/// The image without its alpha channel, laid on a background of `grey` (one band and alpha) or `red`, `green`,
/// `blue` (three bands and alpha), each 0–255 and scaled to the image's depth (`max_alpha` 255 or 65535).
int sy_vips_flatten(VipsImage *in, VipsImage **out, double red, double green, double blue, double grey);

/// Encoders: the bytes go to `*out` (free with `sy_free`), `*length` bytes long. 0 on success.
int sy_vips_jpeg(VipsImage *in, void **out, size_t *length, int quality, int strip);
int sy_vips_png(VipsImage *in, void **out, size_t *length, int strip);
int sy_vips_webp(VipsImage *in, void **out, size_t *length, int quality, int strip);
int sy_vips_avif(VipsImage *in, void **out, size_t *length, int quality, int strip);
int sy_vips_heic(VipsImage *in, void **out, size_t *length, int quality, int strip);

/// The error messages libvips recorded, copied and cleared in one step under its lock (free with `sy_free`).
char *sy_vips_take_error(void);

/// Frees what libvips allocated (an encoder's bytes, an error message): glib's `g_free`.
void sy_free(void *pointer);

/// Whether the installed libvips can encode `suffix` (".avif"): a 1 × 1 image is encoded (a saver can exist while
/// its codec's plugin is missing), on a thread of its own at nice value `niceness` (libvips keeps the worker
/// threads an encode starts, for every later image, and they keep the scheduling of the thread that started them).
int sy_vips_can_save_niced(const char *suffix, int niceness);

void sy_vips_unref(VipsImage *image);

/// Limits glibc's malloc arenas to `count` (process-wide; Linux). 1 on success.
int sy_limit_malloc_arenas(int count);

/// Lowers the calling thread's scheduling (Linux: both are per thread): with `idle`, to `SCHED_IDLE` (it runs only
/// when no other thread wants the processor, and a waking thread of any other policy preempts it at once);
/// otherwise to nice value `niceness`. Threads the calling thread creates inherit it. Without privileges a thread
/// can only be made less favoured, never more again. 0 on success; -1 elsewhere than on Linux.
int sy_thread_lower_scheduling(int idle, int niceness);

#endif
