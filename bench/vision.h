/* The vision entries of tessera-bench (vision.c): conv2d, max_pool2d and
 * bilinear interpolate. */
#ifndef TSR_BENCH_VISION_H
#define TSR_BENCH_VISION_H

#include <stdbool.h>

#include "bench.h"

/* Appends the entries to entries[*count...]. */
void bench_vision_add_entries(bool quick, bench_entry *entries, int *count, int capacity);
/* Whether an entry is one of these. */
bool bench_vision_owns(const bench_entry *e);
/* x (the activation), w (conv2d's weight) and gout (the gradient fed to the
 * backward entries), NULL where an entry does not use them. */
tsr_status bench_vision_make_inputs(const bench_entry *e, tsr_backend *backend, tsr_generator *gen,
                                    tsr_tensor **x, tsr_tensor **w, tsr_tensor **gout);
/* One call, its output released. */
tsr_status bench_vision_call_once(const bench_entry *e, tsr_tensor *x, tsr_tensor *w,
                                  const tsr_tensor *gout);

#endif /* TSR_BENCH_VISION_H */
