// A render's cancellation (declared in CVips.h): its flag, the reader its decode reads through, which refuses every
// read once the flag is set, and the images it builds, whose evaluation setting the flag kills.
// Empty without the package's Images trait (no libvips headers); SwitchyardImages then does not import CVips.
#ifdef SWITCHYARD_IMAGES
#include "symbols.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// MARK: publishing a reader (Thread Sanitizer), the flag

// libvips calls a source's callbacks from one thread at a time, the decoding thread or one of its workers, in an
// order kept by its own locks (glib's futex-based mutexes, which Thread Sanitizer does not see). Under the
// sanitizer these annotations state that order on the reader: the thread that made it publishes it, each callback
// acquires it on entry and releases it on return, and the thread that frees it acquires it first.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
void __tsan_acquire(void *address);
void __tsan_release(void *address);
#define SY_ACQUIRE(reader) __tsan_acquire(reader)
#define SY_RELEASE(reader) __tsan_release(reader)
#endif
#endif
#ifndef SY_ACQUIRE
#define SY_ACQUIRE(reader) ((void)(reader))
#define SY_RELEASE(reader) ((void)(reader))
#endif

void sy_reader_publish(SYReader *reader) { SY_RELEASE(reader); }
void sy_reader_retire(SYReader *reader) { SY_ACQUIRE(reader); }

/// A render's cancellation flag. `set` comes first: a reader knows the flag as an `int *` to it. `images` holds the
/// libvips images built on the render's thread between `sy_render_begin` and `sy_render_end`, each referenced:
/// setting the flag kills their evaluation. `lock` guards `images`, `count` and `capacity` (the render's thread adds
/// to them; the thread that sets the flag reads them). In debug builds (SWITCHYARD_TEST_HOOKS) the block also holds
/// its reads' observer (tests; see `sy_flag_observe_reads`).
typedef struct {
    int set;
    pthread_mutex_t lock;
    VipsImage **images;
    size_t count;
    size_t capacity;
#ifdef SWITCHYARD_TEST_HOOKS
    SYReadObserver observer;
    void *context;
#endif
} SYFlag;

int *sy_flag_new(void) {
    SYFlag *flag = calloc(1, sizeof(SYFlag));
    if (!flag) return NULL;
    pthread_mutex_init(&flag->lock, NULL);
    return &flag->set;
}

void sy_flag_free(int *flag) {
    SYFlag *block = (SYFlag *)flag;
    pthread_mutex_destroy(&block->lock);
    free(block->images);  // empty: `sy_render_end` released them
    free(block);
}

/// Sets the flag, then kills the evaluation of the images the render has built so far (later ones are killed as
/// they are built). libvips reads an image's kill flag at each region of pixels it computes (and clears it when it
/// acts on it): the render's next region fails, and so does the render. `vips_image_set_kill` is meant to be called
/// from any thread (libvips' own viewers do): it writes one aligned `int`, which libvips' threads read, and clear
/// once they act on it, without a lock, by design. The lock here only keeps the images referenced meanwhile.
void sy_flag_set(int *flag) {
    SYFlag *block = (SYFlag *)flag;
    __atomic_store_n(&block->set, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&block->lock);
    for (size_t index = 0; index < block->count; index++) vips_image_set_kill(block->images[index], TRUE);
    pthread_mutex_unlock(&block->lock);
}

int sy_flag_is_set(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }

#ifdef SWITCHYARD_TEST_HOOKS
void sy_flag_observe_reads(int *flag, SYReadObserver observer, void *context) {
    SYFlag *block = (SYFlag *)flag;
    block->observer = observer;
    block->context = context;
}

static void sy_flag_report_read(const SYReader *reader) {
    const SYFlag *block = (const SYFlag *)reader->cancelled;
    if (block->observer) block->observer(block->context, reader->offset, reader->length);
}
#else
void sy_flag_observe_reads(int *flag, SYReadObserver observer, void *context) {
    (void)flag;
    (void)observer;
    (void)context;
}
#define sy_flag_report_read(reader) ((void)(reader))
#endif

// MARK: a render's images

/// The render of the calling thread, between `sy_render_begin` and `sy_render_end`: one at a time per thread.
static _Thread_local SYFlag *sy_rendering;

/// The "postbuild" emission hook, called on the thread that built the object: keeps each image built by a thread
/// that is rendering, referenced, and kills it at once if the render is already cancelled. Any other object, or an
/// image built on another thread (a libvips worker's), is left alone. Always stays installed.
static gboolean sy_keep_built_image(GSignalInvocationHint *hint, guint count, const GValue *values, gpointer data) {
    (void)hint;
    (void)data;
    SYFlag *flag = sy_rendering;
    if (!flag || count < 1) return TRUE;
    GObject *object = g_value_get_object(&values[0]);
    if (!object || !g_type_is_a(G_TYPE_FROM_INSTANCE(object), VIPS_TYPE_IMAGE)) return TRUE;
    pthread_mutex_lock(&flag->lock);
    if (flag->count == flag->capacity) {
        size_t capacity = flag->capacity ? 2 * flag->capacity : 32;
        VipsImage **images = realloc(flag->images, capacity * sizeof *images);
        if (!images) {  // this image is not kept: its render still stops at its next read
            pthread_mutex_unlock(&flag->lock);
            return TRUE;
        }
        flag->images = images;
        flag->capacity = capacity;
    }
    VipsImage *image = (VipsImage *)g_object_ref(object);
    flag->images[flag->count++] = image;
    if (__atomic_load_n(&flag->set, __ATOMIC_ACQUIRE)) vips_image_set_kill(image, TRUE);
    pthread_mutex_unlock(&flag->lock);
    return TRUE;
}

int sy__install_render_hook(void) {
    // Every libvips object emits "postbuild" once built: a hook on it sees each image a render builds, on the
    // render's thread. The class is referenced for good: its signals exist once it does.
    (void)g_type_class_ref(VIPS_TYPE_OBJECT);
    guint postbuild = g_signal_lookup("postbuild", VIPS_TYPE_OBJECT);
    GSignalQuery query = {0};
    if (postbuild) g_signal_query(postbuild, &query);
    return postbuild && !(query.signal_flags & G_SIGNAL_NO_HOOKS) &&
        g_signal_add_emission_hook(postbuild, 0, sy_keep_built_image, NULL, NULL) != 0;
}

void sy_render_begin(int *flag) { sy_rendering = (SYFlag *)flag; }

void sy_render_end(int *flag) {
    SYFlag *block = (SYFlag *)flag;
    sy_rendering = NULL;
    pthread_mutex_lock(&block->lock);
    VipsImage **images = block->images;
    size_t count = block->count;
    block->images = NULL;
    block->count = 0;
    block->capacity = 0;
    pthread_mutex_unlock(&block->lock);
    // Outside the lock: disposing an image may emit signals (the hook ignores them: this thread renders no more).
    for (size_t index = 0; index < count; index++) g_object_unref(images[index]);
    free(images);
}

// MARK: the reader and its source

/// A read fails once the render is cancelled: a decode that still reads stops there (every few KiB of the encoded
/// image); one that has read what it needs is stopped by the kill of its images (`sy_flag_set`).
static gint64 sy_reader_read_once(SYReader *reader, void *buffer, gint64 length) {
    sy_flag_report_read(reader);
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

gint64 sy__reader_read(SYReader *reader, void *buffer, gint64 length) {
    SY_ACQUIRE(reader);
    gint64 count = sy_reader_read_once(reader, buffer, length);
    SY_RELEASE(reader);
    return count;
}

void sy__reader_rewind(SYReader *reader) {
    SY_ACQUIRE(reader);
    reader->offset = 0;
    SY_RELEASE(reader);
}

static gint64 sy_reader_read(VipsSourceCustom *source, void *buffer, gint64 length, SYReader *reader) {
    SY_ACQUIRE(reader);
    gint64 count = sy_reader_read_once(reader, buffer, length);
    SY_RELEASE(reader);
    return count;
}

static gint64 sy_reader_seek_once(SYReader *reader, gint64 offset, int whence) {
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

static gint64 sy_reader_seek(VipsSourceCustom *source, gint64 offset, int whence, SYReader *reader) {
    SY_ACQUIRE(reader);
    gint64 target = sy_reader_seek_once(reader, offset, whence);
    SY_RELEASE(reader);
    return target;
}

VipsSource *sy__source_new(SYReader *reader) {
    VipsSourceCustom *source = vips_source_custom_new();
    if (!source) return NULL;
    g_signal_connect_data(source, "read", G_CALLBACK(sy_reader_read), reader, NULL, 0);
    g_signal_connect_data(source, "seek", G_CALLBACK(sy_reader_seek), reader, NULL, 0);
    return VIPS_SOURCE(source);
}
#endif
