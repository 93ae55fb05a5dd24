#pragma once
#include <duktape.h>

// Duktape's evaluation and string calls are macros, which Swift does not import: a function for each one used.

/// Evaluates `length` bytes of source named `name`, in protected mode: 0 with the value of its last statement on
/// the stack, or non-zero with the error there.
static inline duk_int_t cduk_peval(duk_context *ctx, const char *source, duk_size_t length, const char *name) {
    duk_push_string(ctx, name);
    return duk_eval_raw(ctx, source, length, 1 | DUK_COMPILE_EVAL | DUK_COMPILE_SAFE | DUK_COMPILE_NOSOURCE);
}

/// The value at `index` as a string, converted without throwing (an error gives its kind and message).
static inline const char *cduk_safe_to_string(duk_context *ctx, duk_idx_t index) {
    return duk_safe_to_lstring(ctx, index, NULL);
}
