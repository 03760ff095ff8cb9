/* The single-file form of saved training state: every tensor in one
 * .safetensors file under its record's key, the text index beside them in
 * the file's __metadata__, so the index format and its checks are the same
 * as for a directory of .npy files. */
#include "io/state_place.h"
#include "runtime/alloc.h"

#include "io/safetensors.h"
#include "runtime/error.h"

#include <stdlib.h>
#include <string.h>

void tsr__state_place_init(tsr__state_place *place, const char *path)
{
    memset(place, 0, sizeof *place);
    place->path = path;
    size_t n = strlen(path), ext = strlen(".safetensors");
    place->single = n > ext && strcmp(path + n - ext, ".safetensors") == 0;
}

void tsr__state_place_free(tsr__state_place *place)
{
    for (size_t i = 0; i < place->count; i++)
        free(place->names[i]);
    free(place->names);
    free(place->tensors);
    tsr_named_tensors_free(place->loaded_names, place->loaded, place->nloaded);
    memset(place, 0, sizeof *place);
}

tsr_status tsr__state_place_add(tsr__state_place *place, const char *key, const tsr_tensor *t)
{
    char **names = tsr__realloc(place->names, (place->count + 1) * sizeof *names);
    if (names)
        place->names = names;
    const tsr_tensor **tensors = tsr__realloc(place->tensors, (place->count + 1) * sizeof *tensors);
    if (tensors)
        place->tensors = tensors;
    char *copy = names && tensors ? tsr__strdup(key) : NULL;
    if (!copy)
        return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "state_save: out of memory");
    place->names[place->count] = copy;
    place->tensors[place->count++] = t;
    return TSR_OK;
}

tsr_status tsr__state_place_write(tsr__state_place *place, const char *index_text)
{
    int st =
        tsr__safetensors_save_meta(place->path, (const char *const *)place->names, place->tensors,
                                   place->count, TSR__STATE_META_KEY, index_text);
    if (st != TSR_OK)
        tsr__prefix_error("state_save");
    return (tsr_status)st;
}

tsr_status tsr__state_place_read(tsr__state_place *place, char **index_text)
{
    int st = tsr__safetensors_load_meta(place->path, NULL, TSR__STATE_META_KEY, index_text,
                                        &place->loaded_names, &place->loaded, &place->nloaded);
    if (st != TSR_OK)
        tsr__prefix_error("state_load");
    return (tsr_status)st;
}

tsr_tensor *tsr__state_place_find(const tsr__state_place *place, const char *key)
{
    for (size_t i = 0; i < place->nloaded; i++)
        if (strcmp(place->loaded_names[i], key) == 0)
            return place->loaded[i];
    return NULL;
}
