/* Where tsr_state_save/load put the tensors (internal): one .npy file per
 * tensor in a directory, or one .safetensors file holding every tensor and
 * the text index (as __metadata__["tessera-state"]). */
#ifndef TSR_CORE_STATE_PLACE_H
#define TSR_CORE_STATE_PLACE_H

#include "tessera/tessera.h"

typedef struct tsr__state_place {
    const char *path; /* the directory, or the .safetensors file */
    bool single;      /* path ends in ".safetensors" */
    /* saving into one file: the tensors collected (borrowed), by key */
    char **names;
    const tsr_tensor **tensors;
    size_t count;
    /* loading from one file: everything it holds */
    char **loaded_names;
    tsr_tensor **loaded;
    size_t nloaded;
} tsr__state_place;

/* The metadata key that holds the text index. */
#define TSR__STATE_META_KEY "tessera-state"

void tsr__state_place_init(tsr__state_place *place, const char *path);
void tsr__state_place_free(tsr__state_place *place);
/* Saving: remembers `t` under `key` (single file only). */
tsr_status tsr__state_place_add(tsr__state_place *place, const char *key, const tsr_tensor *t);
/* Saving: writes the collected tensors and the index text. */
tsr_status tsr__state_place_write(tsr__state_place *place, const char *index_text);
/* Loading: reads the file; *index_text (malloc'ed) is the index. */
tsr_status tsr__state_place_read(tsr__state_place *place, char **index_text);
/* Loading: the tensor saved under `key` (borrowed), or NULL. */
tsr_tensor *tsr__state_place_find(const tsr__state_place *place, const char *key);

#endif
