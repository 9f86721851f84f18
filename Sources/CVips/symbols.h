// CVips' own declarations, for its C files only (not part of its module): the libvips and glib functions they
// call, through pointers that `sy_vips_start` resolves once libvips is loaded (shim.c), and what one file gives
// another. The pointers are written once, before `sy_vips_start` returns, and only read afterwards.
#ifndef SWITCHYARD_CVIPS_SYMBOLS_H
#define SWITCHYARD_CVIPS_SYMBOLS_H

#define G_DISABLE_CAST_CHECKS  // a cast macro must not call glib's checked cast, which is not linked
#include "CVips.h"

// Every libvips and glib function the target calls.
#define SY_SYMBOLS(X) \
    X(vips_init) X(vips_concurrency_set) X(vips_cache_set_max) X(vips_cache_set_max_mem) X(vips_cache_set_max_files) \
    X(vips_block_untrusted_set) X(g_log_set_handler) X(vips_image_new_from_buffer) X(g_type_from_name) \
    X(vips_operation_get_type) X(g_type_is_a) X(g_type_class_ref) X(g_type_class_unref) X(vips_source_custom_new) \
    X(g_signal_connect_data) X(vips_foreign_find_load_source) X(vips_foreign_find_load) \
    X(vips_foreign_find_load_buffer) X(g_object_unref) X(vips_image_new_from_source) X(vips_thumbnail_source) \
    X(vips_thumbnail_image) \
    X(vips_image_get_width) X(vips_image_get_height) X(vips_image_get_orientation) X(vips_region_new) \
    X(vips_region_prepare) X(vips_image_new_memory) X(vips_image_init_fields) X(vips_image_write_prepare) \
    X(vips_image_set_int) X(vips_error) X(vips_autorot) X(vips_copy) X(vips_smartcrop) \
    X(vips_image_get_interpretation) X(vips_image_hasalpha) \
    X(vips_image_get_typeof) X(vips_colourspace) X(vips_image_get_bands) X(vips_image_get_format) \
    X(vips_array_double_new) X(vips_flatten) X(vips_area_unref) X(vips_jpegsave_buffer) X(vips_pngsave_buffer) \
    X(vips_webpsave_buffer) X(vips_heifsave_buffer) X(vips_error_buffer_copy) X(vips_black) \
    X(vips_image_write_to_buffer) X(g_free) X(vips_image_set_kill) X(vips_image_get_type) X(vips_object_get_type) \
    X(g_signal_lookup) X(g_signal_query) X(g_signal_add_emission_hook) X(g_value_get_object) X(g_object_ref)

// A pointer per function, defined in shim.c (which defines SY_DEFINE_SYMBOLS first) and visible to the target's
// other files only.
#ifdef SY_DEFINE_SYMBOLS
#define SY_POINTER(name) __attribute__((visibility("hidden"))) __typeof__(name) *sy_p_##name;
#else
#define SY_POINTER(name) extern __attribute__((visibility("hidden"))) __typeof__(name) *sy_p_##name;
#endif
SY_SYMBOLS(SY_POINTER)
#undef SY_POINTER

// From here on, a call to one of them goes through its pointer. A libvips name left out of SY_SYMBOLS would be a
// direct call, which fails to link in a program without libvips (`switchyard`); glib's are kept with libvips' for
// one rule (glib itself is linked, through CLibVips' flags).
// glib may define these as macros (g_free: glib 2.78 with glibc's free_sized; g_object_ref: a type-keeping wrapper).
#undef g_type_is_a
#undef g_free
#undef g_object_ref
#define vips_init (*sy_p_vips_init)
#define vips_concurrency_set (*sy_p_vips_concurrency_set)
#define vips_cache_set_max (*sy_p_vips_cache_set_max)
#define vips_cache_set_max_mem (*sy_p_vips_cache_set_max_mem)
#define vips_cache_set_max_files (*sy_p_vips_cache_set_max_files)
#define vips_block_untrusted_set (*sy_p_vips_block_untrusted_set)
#define g_log_set_handler (*sy_p_g_log_set_handler)
#define vips_image_new_from_buffer (*sy_p_vips_image_new_from_buffer)
#define g_type_from_name (*sy_p_g_type_from_name)
#define vips_operation_get_type (*sy_p_vips_operation_get_type)
#define g_type_is_a (*sy_p_g_type_is_a)
#define g_type_class_ref (*sy_p_g_type_class_ref)
#define g_type_class_unref (*sy_p_g_type_class_unref)
#define vips_source_custom_new (*sy_p_vips_source_custom_new)
#define g_signal_connect_data (*sy_p_g_signal_connect_data)
#define vips_foreign_find_load_source (*sy_p_vips_foreign_find_load_source)
#define vips_foreign_find_load (*sy_p_vips_foreign_find_load)
#define vips_foreign_find_load_buffer (*sy_p_vips_foreign_find_load_buffer)
#define g_object_unref (*sy_p_g_object_unref)
#define vips_image_new_from_source (*sy_p_vips_image_new_from_source)
#define vips_thumbnail_source (*sy_p_vips_thumbnail_source)
#define vips_thumbnail_image (*sy_p_vips_thumbnail_image)
#define vips_image_get_width (*sy_p_vips_image_get_width)
#define vips_image_get_height (*sy_p_vips_image_get_height)
#define vips_image_get_orientation (*sy_p_vips_image_get_orientation)
#define vips_region_new (*sy_p_vips_region_new)
#define vips_region_prepare (*sy_p_vips_region_prepare)
#define vips_image_new_memory (*sy_p_vips_image_new_memory)
#define vips_image_init_fields (*sy_p_vips_image_init_fields)
#define vips_image_write_prepare (*sy_p_vips_image_write_prepare)
#define vips_image_set_int (*sy_p_vips_image_set_int)
#define vips_error (*sy_p_vips_error)
#define vips_autorot (*sy_p_vips_autorot)
#define vips_copy (*sy_p_vips_copy)
#define vips_smartcrop (*sy_p_vips_smartcrop)
#define vips_image_get_interpretation (*sy_p_vips_image_get_interpretation)
#define vips_image_hasalpha (*sy_p_vips_image_hasalpha)
#define vips_image_get_typeof (*sy_p_vips_image_get_typeof)
#define vips_colourspace (*sy_p_vips_colourspace)
#define vips_image_get_bands (*sy_p_vips_image_get_bands)
#define vips_image_get_format (*sy_p_vips_image_get_format)
#define vips_array_double_new (*sy_p_vips_array_double_new)
#define vips_flatten (*sy_p_vips_flatten)
#define vips_area_unref (*sy_p_vips_area_unref)
#define vips_jpegsave_buffer (*sy_p_vips_jpegsave_buffer)
#define vips_pngsave_buffer (*sy_p_vips_pngsave_buffer)
#define vips_webpsave_buffer (*sy_p_vips_webpsave_buffer)
#define vips_heifsave_buffer (*sy_p_vips_heifsave_buffer)
#define vips_error_buffer_copy (*sy_p_vips_error_buffer_copy)
#define vips_black (*sy_p_vips_black)
#define vips_image_write_to_buffer (*sy_p_vips_image_write_to_buffer)
#define g_free (*sy_p_g_free)
#define vips_image_set_kill (*sy_p_vips_image_set_kill)
#define vips_image_get_type (*sy_p_vips_image_get_type)
#define vips_object_get_type (*sy_p_vips_object_get_type)
#define g_signal_lookup (*sy_p_g_signal_lookup)
#define g_signal_query (*sy_p_g_signal_query)
#define g_signal_add_emission_hook (*sy_p_g_signal_add_emission_hook)
#define g_value_get_object (*sy_p_g_value_get_object)
#define g_object_ref (*sy_p_g_object_ref)

/// A libvips source that reads through `reader` (which must outlive it). NULL on failure. (cancellation.c)
__attribute__((visibility("hidden"))) VipsSource *sy__source_new(SYReader *reader);

/// Installs the hook that keeps the images each render builds (see `sy_render_begin`); whether glib accepted it.
/// Called once, by `sy_vips_start`. (cancellation.c)
__attribute__((visibility("hidden"))) int sy__install_render_hook(void);

/// Reads up to `length` bytes through `reader` at its offset, as a libvips source would (refused once its render
/// is cancelled): the count, 0 at the end, -1 on failure. (cancellation.c)
__attribute__((visibility("hidden"))) gint64 sy__reader_read(SYReader *reader, void *buffer, gint64 length);

/// Moves `reader` back to its start, for the next decode to read it from there. (cancellation.c)
__attribute__((visibility("hidden"))) void sy__reader_rewind(SYReader *reader);

/// Loads libjpeg for the direct JPEG path (the library libvips decodes JPEG with): whether it is usable. Called
/// once, by `sy_vips_start`, after libvips is loaded. (jpeg.c)
__attribute__((visibility("hidden"))) int sy__jpeg_load(void);

#endif
