/*
 * rocfft.h -- the C interface of rocmath's FFT (librocfft.so, built from the rocmath-capi-fft
 * crate).
 *
 * Source-compatible with ROCm's rocfft.h: every type, enumerator (same order, so the same
 * values) and function signature below is the one ROCm's header declares, and every function
 * it declares is here, so a program written for rocFFT compiles and links against this header
 * and library unchanged. The declarations ROCm keeps disabled (execution modes,
 * rocfft_execution_info_get_events, the offline tuner's handle) are not part of either API.
 *
 * Plain C99 (also valid C++); it needs no HIP header.
 *
 * Device: plans are created on rocmath's default device, ROCMATH_DEVICE=cpu|cuda[:N]|hip[:N]
 * when set, else the best device present (a GPU, else the CPU). On a GPU the buffers passed to
 * rocfft_execute are device addresses; on the CPU device they are ordinary host pointers and
 * the transform is complete when rocfft_execute returns.
 *
 * Status conventions (matching rocFFT wherever rocFFT defines the behaviour):
 *   - a null plan is rocfft_status_failure; any other null handle or pointer argument is
 *     rocfft_status_invalid_arg_value;
 *   - a call that fails writes nothing: no output parameter (rocfft_plan_create leaves *plan as
 *     it was), no object state, no data;
 *   - features rocmath does not provide return rocfft_status_failure after rocFFT's own argument
 *     checks: distributed transforms (a plan whose description has a field, an MPI
 *     communicator), load/store callbacks, and (de)serializing the compiled-kernel cache.
 */
#ifndef ROCFFT_H
#define ROCFFT_H

#include <stddef.h>

/* Symbol visibility of the exported functions (ROCm's generated rocfft-export.h equivalent). */
#ifndef ROCFFT_EXPORT
#if defined(_WIN32) || defined(__CYGWIN__)
#define ROCFFT_EXPORT __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define ROCFFT_EXPORT __attribute__((visibility("default")))
#else
#define ROCFFT_EXPORT
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Opaque handles                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* A validated transform bound to a device: rocfft_plan_create / rocfft_plan_destroy. */
typedef struct rocfft_plan_t* rocfft_plan;

/* Optional plan settings (scale factor, data layout): rocfft_plan_description_create /
 * rocfft_plan_description_destroy. */
typedef struct rocfft_plan_description_t* rocfft_plan_description;

/* Optional execution settings (stream, work buffer): rocfft_execution_info_create /
 * rocfft_execution_info_destroy. */
typedef struct rocfft_execution_info_t* rocfft_execution_info;

/* A decomposition of the data into bricks, for distributed transforms (recorded, but plans that
 * use one are not supported: rocfft_status_failure). */
typedef struct rocfft_field_t* rocfft_field;

/* One box of a field's index space and its memory strides. */
typedef struct rocfft_brick_t* rocfft_brick;

/* ------------------------------------------------------------------------------------------ */
/* Enumerations (values are their positions, from 0)                                           */
/* ------------------------------------------------------------------------------------------ */

typedef enum rocfft_status_e
{
    rocfft_status_success,
    rocfft_status_failure, /* anything without a more precise status */
    rocfft_status_invalid_arg_value,
    rocfft_status_invalid_dimensions,
    rocfft_status_invalid_array_type,
    rocfft_status_invalid_strides,
    rocfft_status_invalid_distance,
    rocfft_status_invalid_offset,
    rocfft_status_invalid_work_buffer,
} rocfft_status;

/* Forward transforms use exp(-2 pi i jk/n), inverse ones exp(+2 pi i jk/n); neither is
 * normalised (set a scale factor for that). */
typedef enum rocfft_transform_type_e
{
    rocfft_transform_type_complex_forward,
    rocfft_transform_type_complex_inverse,
    rocfft_transform_type_real_forward, /* real in, hermitian (n/2 + 1 on the fastest dim) out */
    rocfft_transform_type_real_inverse, /* hermitian in, real out */
} rocfft_transform_type;

typedef enum rocfft_precision_e
{
    rocfft_precision_single,
    rocfft_precision_double,
    rocfft_precision_half,
} rocfft_precision;

/* In place the output overwrites the input buffers. Out of place, the input may still be used
 * as scratch and overwritten. */
typedef enum rocfft_result_placement_e
{
    rocfft_placement_inplace,
    rocfft_placement_notinplace,
} rocfft_result_placement;

/* Interleaved arrays hold (re, im) pairs in one buffer; planar arrays use two buffers, real
 * parts then imaginary parts. */
typedef enum rocfft_array_type_e
{
    rocfft_array_type_complex_interleaved,
    rocfft_array_type_complex_planar,
    rocfft_array_type_real,
    rocfft_array_type_hermitian_interleaved,
    rocfft_array_type_hermitian_planar,
    rocfft_array_type_unset, /* the transform's default (interleaved) */
} rocfft_array_type;

typedef enum rocfft_comm_type_e
{
    rocfft_comm_none,
    rocfft_comm_mpi, /* not supported: rocfft_plan_description_set_comm fails */
} rocfft_comm_type;

/* ------------------------------------------------------------------------------------------ */
/* Library                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Nothing to set up or release: both always succeed, any number of times. */
ROCFFT_EXPORT rocfft_status rocfft_setup(void);
ROCFFT_EXPORT rocfft_status rocfft_cleanup(void);

/* Writes "rocmath-fft <version>" and its terminating NUL to buf. A null buf is
 * rocfft_status_failure; a len shorter than the text plus NUL is rocfft_status_invalid_arg_value
 * (nothing written). 30 bytes always suffice. */
ROCFFT_EXPORT rocfft_status rocfft_get_version_string(char* buf, size_t len);

/* ------------------------------------------------------------------------------------------ */
/* Plans                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Creates a plan for number_of_transforms transforms of `dimensions` (1 to 3) lengths, fastest
 * dimension first (lengths[0]); for real transforms lengths are the real data's. description may
 * be NULL (scale 1, packed interleaved layouts). Checks, in order:
 *   dimensions 0 or above 3                          rocfft_status_invalid_dimensions
 *   placement or precision outside its enum          rocfft_status_invalid_arg_value
 *   strides given but not one per dimension          rocfft_status_invalid_strides
 *   transform type outside its enum, or fields used  rocfft_status_failure
 *   array types that do not fit the transform, or
 *   (in place) differ for complex / planar hermitian rocfft_status_invalid_array_type
 *   a zero length or zero transforms                 rocfft_status_failure
 *   in place: output layout other than the input's
 *   (complex) or its real/hermitian counterpart      rocfft_status_failure
 *   distinct outputs sharing memory (rocmath's own)  rocfft_status_invalid_strides / _distance
 * A null plan or lengths pointer is rocfft_status_invalid_arg_value. On failure *plan is not
 * written. */
ROCFFT_EXPORT rocfft_status rocfft_plan_create(rocfft_plan*                  plan,
                                               rocfft_result_placement       placement,
                                               rocfft_transform_type         transform_type,
                                               rocfft_precision              precision,
                                               size_t                        dimensions,
                                               const size_t*                 lengths,
                                               size_t                        number_of_transforms,
                                               const rocfft_plan_description description);

/* Runs a plan. in_buffer and out_buffer hold one pointer per buffer (two for planar arrays: real
 * parts, then imaginary parts); out_buffer is ignored in place and may be NULL then. info may be
 * NULL (default stream, the plan's own scratch). A null plan is rocfft_status_failure; null
 * buffer arrays or pointers rocfft_status_invalid_arg_value; a work buffer in info smaller than
 * rocfft_plan_get_work_buffer_size says rocfft_status_invalid_work_buffer. On a GPU the work is
 * queued on the info's stream and the call returns. */
ROCFFT_EXPORT rocfft_status rocfft_execute(const rocfft_plan     plan,
                                           void*                 in_buffer[],
                                           void*                 out_buffer[],
                                           rocfft_execution_info info);

/* Frees a plan (NULL is accepted). */
ROCFFT_EXPORT rocfft_status rocfft_plan_destroy(rocfft_plan plan);

/* Every element of the result is multiplied by scale_factor (use 1/N after an inverse
 * transform to undo a forward one). A factor that is not finite is
 * rocfft_status_invalid_arg_value and leaves the factor unchanged. */
ROCFFT_EXPORT rocfft_status rocfft_plan_description_set_scale_factor(
    rocfft_plan_description description, const double scale_factor);

/* Sets array types, offsets, strides and distances of the input and output (each call replaces
 * all of them). Offsets, strides and distances count elements of their array: complex elements
 * for interleaved arrays, scalars for real and planar ones.
 *   - array types: rocfft_array_type_unset keeps the transform's default;
 *   - offsets: NULL means 0; a planar array reads two (real buffer, imaginary buffer);
 *   - strides: NULL means packed (a real array in place is padded to 2 * (n/2 + 1) scalars per
 *     row); otherwise *_strides_size values, fastest dimension first, which must equal the
 *     plan's dimension count;
 *   - distances: 0 means the last stride times the last length.
 * Nothing but the description pointer is checked here; the rest is checked when a plan is
 * created. */
ROCFFT_EXPORT rocfft_status
    rocfft_plan_description_set_data_layout(rocfft_plan_description description,
                                            const rocfft_array_type in_array_type,
                                            const rocfft_array_type out_array_type,
                                            const size_t*           in_offsets,
                                            const size_t*           out_offsets,
                                            const size_t            in_strides_size,
                                            const size_t*           in_strides,
                                            const size_t            in_distance,
                                            const size_t            out_strides_size,
                                            const size_t*           out_strides,
                                            const size_t            out_distance);

/* Fields: created empty, filled with rocfft_field_add_brick; may be destroyed once added to a
 * description (NULL is accepted). */
ROCFFT_EXPORT rocfft_status rocfft_field_create(rocfft_field* field);
ROCFFT_EXPORT rocfft_status rocfft_field_destroy(rocfft_field field);

/* Not supported: rocfft_comm_none succeeds; any other communicator type is
 * rocfft_status_failure (rocfft_status_invalid_arg_value with a NULL comm_handle). */
ROCFFT_EXPORT rocfft_status rocfft_plan_description_set_comm(rocfft_plan_description description,
                                                             rocfft_comm_type        comm_type,
                                                             void*                   comm_handle);

/* A brick: lower (inclusive) and upper (exclusive) corners and memory strides, each of
 * dim_with_batch values (the transform's dimensions plus the batch, fastest first), on device
 * deviceID. dim_with_batch outside 2..4 is rocfft_status_invalid_dimensions; a lower bound above
 * its upper bound rocfft_status_failure. */
ROCFFT_EXPORT rocfft_status rocfft_brick_create(rocfft_brick* brick,
                                                const size_t* field_lower,
                                                const size_t* field_upper,
                                                const size_t* brick_stride,
                                                size_t        dim_with_batch,
                                                int           deviceID);

/* Frees a brick (NULL is accepted); a field keeps its own copy. */
ROCFFT_EXPORT rocfft_status rocfft_brick_destroy(rocfft_brick brick);

/* Appends a copy of brick to field; a brick whose dimension count differs from the field's
 * other bricks is rocfft_status_failure. */
ROCFFT_EXPORT rocfft_status rocfft_field_add_brick(rocfft_field field, rocfft_brick brick);

/* Record a copy of field as the input (output) decomposition. A plan created from a description
 * with a field is rocfft_status_failure: rocmath has no distributed transforms. */
ROCFFT_EXPORT rocfft_status rocfft_plan_description_add_infield(rocfft_plan_description description,
                                                                rocfft_field            field);
ROCFFT_EXPORT rocfft_status
    rocfft_plan_description_add_outfield(rocfft_plan_description description, rocfft_field field);

/* Bytes of device scratch an execution needs (0 on the CPU device). A null plan is
 * rocfft_status_failure, a null size_in_bytes rocfft_status_invalid_arg_value. */
ROCFFT_EXPORT rocfft_status rocfft_plan_get_work_buffer_size(const rocfft_plan plan,
                                                             size_t*           size_in_bytes);

/* Prints the plan (transform, lengths, batch, layouts, device, passes) to standard output. */
ROCFFT_EXPORT rocfft_status rocfft_plan_get_print(const rocfft_plan plan);

/* Plan descriptions: created with scale 1 and default layouts; may be destroyed as soon as the
 * plans using them are created (NULL is accepted). */
ROCFFT_EXPORT rocfft_status rocfft_plan_description_create(rocfft_plan_description* description);
ROCFFT_EXPORT rocfft_status rocfft_plan_description_destroy(rocfft_plan_description description);

/* ------------------------------------------------------------------------------------------ */
/* Execution info                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Created with no work buffer and the default stream; may be destroyed after rocfft_execute
 * (NULL is accepted). */
ROCFFT_EXPORT rocfft_status rocfft_execution_info_create(rocfft_execution_info* info);
ROCFFT_EXPORT rocfft_status rocfft_execution_info_destroy(rocfft_execution_info info);

/* Scratch memory for executions (device memory of the plan's device). A NULL buffer with a
 * non-zero size is rocfft_status_invalid_work_buffer; a size of 0 clears it. Without one, an
 * execution uses the plan's own scratch. */
ROCFFT_EXPORT rocfft_status rocfft_execution_info_set_work_buffer(rocfft_execution_info info,
                                                                  void*                 work_buffer,
                                                                  const size_t size_in_bytes);

/* The stream executions run on: a hipStream_t (a CUstream on CUDA devices) passed by value, not
 * its address; NULL is the default stream. Remembered but unused on the CPU device. */
ROCFFT_EXPORT rocfft_status rocfft_execution_info_set_stream(rocfft_execution_info info,
                                                             void*                 stream);

/* Not supported. A non-zero shared_mem_bytes is rocfft_status_invalid_arg_value (as rocFFT);
 * NULL cb_functions (clearing) succeeds; setting callbacks is rocfft_status_failure. */
ROCFFT_EXPORT rocfft_status rocfft_execution_info_set_load_callback(rocfft_execution_info info,
                                                                    void** cb_functions,
                                                                    void** cb_data,
                                                                    size_t shared_mem_bytes);
ROCFFT_EXPORT rocfft_status rocfft_execution_info_set_store_callback(rocfft_execution_info info,
                                                                     void** cb_functions,
                                                                     void** cb_data,
                                                                     size_t shared_mem_bytes);

/* ------------------------------------------------------------------------------------------ */
/* Compiled-kernel cache                                                                       */
/* ------------------------------------------------------------------------------------------ */

/* Not supported: rocmath keeps compiled kernels in its own on-disk cache (ROCMATH_CACHE_DIR).
 * NULL arguments (or, for deserialize, a zero length) are rocfft_status_invalid_arg_value;
 * otherwise serialize and deserialize are rocfft_status_failure and write or read nothing.
 * rocfft_cache_buffer_free(NULL) succeeds; no other pointer can have come from
 * rocfft_cache_serialize (rocfft_status_invalid_arg_value). */
ROCFFT_EXPORT rocfft_status rocfft_cache_serialize(void** buffer, size_t* buffer_len_bytes);
ROCFFT_EXPORT rocfft_status rocfft_cache_buffer_free(void* buffer);
ROCFFT_EXPORT rocfft_status rocfft_cache_deserialize(const void* buffer, size_t buffer_len_bytes);

#ifdef __cplusplus
}
#endif

#endif /* ROCFFT_H */
