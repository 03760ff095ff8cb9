/* Plugin discovery records (internal). */
#ifndef TSR_CORE_LOADER_H
#define TSR_CORE_LOADER_H

#include "tessera/tessera.h"


enum { TSR__PATH_CAPACITY = 4096 };

typedef enum tsr__plugin_state {
    TSR__PLUGIN_REFUSED, /* could not be used; `reason` says why */
    TSR__PLUGIN_FOUND,   /* opened and probed, not initialised */
    TSR__PLUGIN_LOADED,  /* initialised; `backend` is usable */
    TSR__PLUGIN_FAILED,  /* init or registration failed; `reason` says why */
} tsr__plugin_state;

typedef struct tsr__plugin_record {
    char path[TSR__PATH_CAPACITY];
    char real_path[TSR__PATH_CAPACITY];
    char name[64];
    char version[64];
    char reason[512];
    char probe_reason[256];
    int score;
    tsr__plugin_state state;
    void *library;
    const tsr_plugin *plugin;
    tsr_backend *backend;
} tsr__plugin_record;

void tsr__loader_discover(void);
size_t tsr__plugin_record_count(void);
tsr__plugin_record *tsr__plugin_record_at(size_t i);
void tsr__loader_lock(void);
void tsr__loader_unlock(void);

#endif
