/* The backward engine: finds the nodes reachable from the outputs, orders
 * them topologically, and runs each once with the sum of the gradients that
 * flowed into it. tsr_backward accumulates into leaves; tsr_autograd_grad
 * captures the gradients of chosen inputs instead. */
#include "autograd/engine.h"

#include "runtime/alloc.h"
#include "runtime/error.h"
#include "tensor/shape.h"
#include "ops/grad_expr.h"

#include <stdlib.h>
#include <string.h>

typedef struct task {
    tsr__node *node;
    int deps;            /* edges into the node from reachable nodes not yet run */
    bool leads;          /* autograd_grad: some capture lies below this node */
    bool target;         /* autograd_grad: an input's gradient is read here */
    tsr_tensor **buffer; /* [num_outputs]: gradients summed so far */
} task;

typedef struct graph {
    task *tasks;
    size_t count, capacity;
    size_t *slots; /* open addressing: task index + 1, 0 is empty */
    size_t nslots;
    size_t *order; /* task indices in topological order */
} graph;

typedef struct capture {
    const tsr__node *node;
    int nr;
} capture;

static tsr_status out_of_memory(void)
{
    return tsr__set_error(TSR_ERR_OUT_OF_MEMORY, "backward: out of host memory");
}

static size_t hash(const tsr__node *node, size_t nslots)
{
    uintptr_t h = (uintptr_t)node;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29)) & (nslots - 1);
}

/* The index of node's task, or -1. */
static long find(const graph *g, const tsr__node *node)
{
    if (!g->nslots)
        return -1;
    for (size_t s = hash(node, g->nslots);; s = (s + 1) & (g->nslots - 1)) {
        if (!g->slots[s])
            return -1;
        if (g->tasks[g->slots[s] - 1].node == node)
            return (long)(g->slots[s] - 1);
    }
}

static bool rehash(graph *g, size_t nslots)
{
    size_t *slots = tsr__calloc(nslots, sizeof *slots);
    if (!slots)
        return false;
    free(g->slots);
    g->slots = slots;
    g->nslots = nslots;
    for (size_t i = 0; i < g->count; i++) {
        size_t s = hash(g->tasks[i].node, nslots);
        while (slots[s])
            s = (s + 1) & (nslots - 1);
        slots[s] = i + 1;
    }
    return true;
}

/* Adds node's task if new; *index receives its index, *added whether new. */
static tsr_status add(graph *g, tsr__node *node, size_t *index, bool *added)
{
    long found = find(g, node);
    *added = found < 0;
    if (found >= 0) {
        *index = (size_t)found;
        return TSR_OK;
    }
    if (g->count == g->capacity) {
        size_t capacity = g->capacity ? g->capacity * 2 : 16;
        task *grown = tsr__realloc(g->tasks, capacity * sizeof *grown);
        if (!grown)
            return out_of_memory();
        g->tasks = grown;
        g->capacity = capacity;
    }
    tsr_tensor **buffer = tsr__calloc((size_t)node->num_outputs + 1, sizeof *buffer);
    if (!buffer)
        return out_of_memory();
    g->tasks[g->count] = (task){.node = node, .buffer = buffer};
    *index = g->count++;
    if (g->count * 2 > g->nslots) {
        if (!rehash(g, g->nslots ? g->nslots * 2 : 64)) {
            free(g->tasks[--g->count].buffer);
            return out_of_memory();
        }
        return TSR_OK;
    }
    size_t s = hash(node, g->nslots);
    while (g->slots[s])
        s = (s + 1) & (g->nslots - 1);
    g->slots[s] = *index + 1;
    return TSR_OK;
}

static void graph_free(graph *g)
{
    for (size_t i = 0; i < g->count; i++) {
        for (int k = 0; k < g->tasks[i].node->num_outputs; k++)
            tsr_tensor_release(g->tasks[i].buffer[k]);
        free(g->tasks[i].buffer);
    }
    free(g->tasks);
    free(g->slots);
    free(g->order);
}

typedef struct index_stack {
    size_t *items;
    size_t depth, capacity;
} index_stack;

static tsr_status push(index_stack *stack, size_t index)
{
    if (stack->depth == stack->capacity) {
        size_t capacity = stack->capacity ? stack->capacity * 2 : 64;
        size_t *grown = tsr__realloc(stack->items, capacity * sizeof *grown);
        if (!grown)
            return out_of_memory();
        stack->items = grown;
        stack->capacity = capacity;
    }
    stack->items[stack->depth++] = index;
    return TSR_OK;
}

/* Adds node's task if new, pushing it to be explored; counts an incoming edge
 * unless node is a root. */
static tsr_status visit(graph *g, tsr__node *node, bool edge, index_stack *stack)
{
    size_t index = 0;
    bool added = false;
    tsr_status st = add(g, node, &index, &added);
    if (st == TSR_OK && edge)
        g->tasks[index].deps++;
    if (st == TSR_OK && added)
        st = push(stack, index);
    return st;
}

/* Every node reachable from the roots, with its number of incoming edges. */
static tsr_status discover(graph *g, tsr__node *const *roots, size_t nroots)
{
    index_stack stack = {0};
    tsr_status st = TSR_OK;
    for (size_t r = 0; r < nroots && st == TSR_OK; r++)
        st = visit(g, roots[r], false, &stack);
    while (stack.depth > 0 && st == TSR_OK) {
        tsr__node *node = g->tasks[stack.items[--stack.depth]].node;
        for (int i = 0; i < node->num_inputs && st == TSR_OK; i++) {
            if (node->next[i].node)
                st = visit(g, node->next[i].node, true, &stack);
        }
    }
    free(stack.items);
    return st;
}

/* Kahn's algorithm, depth first among ready nodes so that gradients are
 * released early. */
static tsr_status sort(graph *g)
{
    int *deps = tsr__malloc((g->count + 1) * sizeof *deps);
    size_t *ready = tsr__malloc((g->count + 1) * sizeof *ready);
    g->order = tsr__malloc((g->count + 1) * sizeof *g->order);
    if (!deps || !ready || !g->order) {
        free(deps);
        free(ready);
        return out_of_memory();
    }
    size_t nready = 0, n = 0;
    for (size_t i = g->count; i-- > 0;) {
        deps[i] = g->tasks[i].deps;
        if (deps[i] == 0)
            ready[nready++] = i;
    }
    while (nready > 0) {
        size_t i = ready[--nready];
        g->order[n++] = i;
        const tsr__node *node = g->tasks[i].node;
        for (int k = 0; k < node->num_inputs; k++) {
            if (node->next[k].node && --deps[find(g, node->next[k].node)] == 0)
                ready[nready++] = (size_t)find(g, node->next[k].node);
        }
    }
    free(deps);
    free(ready);
    return TSR_OK;
}

static bool expandable(const tsr__grad_meta *m, const tsr_tensor *g)
{
    if (m->ndim > g->ndim)
        return false;
    for (int i = 0; i < m->ndim; i++) {
        int64_t have = g->shape[g->ndim - m->ndim + i];
        if (m->shape[i] != have && m->shape[i] != 1)
            return false;
    }
    return true;
}

/* Brings a node's gradient to the shape, dtype and backend its input had:
 * sums broadcast dims, converts, moves (PyTorch's validate_outputs). */
static tsr_status conform(const tsr__node *node, int i, const tsr__grad_meta *m, tsr_tensor **grad)
{
    tsr_tensor *g = *grad, *fixed = NULL;
    tsr_status st = TSR_OK;
    if (g->ndim != m->ndim || memcmp(g->shape, m->shape, (size_t)m->ndim * sizeof *m->shape)) {
        if (!expandable(m, g)) {
            char a[160], b[160];
            return tsr__set_error(TSR_ERR_AUTOGRAD,
                                  "backward: the gradient formula of %s returned a gradient of "
                                  "shape %s for input %d, which needs shape %s",
                                  node->name, tsr__shape_str(g->ndim, g->shape, a, sizeof a), i,
                                  tsr__shape_str(m->ndim, m->shape, b, sizeof b));
        }
        st = tsr__sum_to_shape(g, m->ndim, m->shape, &fixed);
    }
    tsr_tensor *moved = NULL;
    if (st == TSR_OK && g->dtype != m->dtype)
        st = tsr_to_dtype(fixed ? fixed : g, m->dtype, &moved);
    if (moved) {
        tsr_tensor_release(fixed);
        fixed = moved;
        moved = NULL;
    }
    if (st == TSR_OK && (fixed ? fixed : g)->storage->backend != m->backend)
        st = tsr_to_backend(fixed ? fixed : g, m->backend, &moved);
    if (moved) {
        tsr_tensor_release(fixed);
        fixed = moved;
    }
    if (st != TSR_OK) {
        tsr_tensor_release(fixed);
        return st;
    }
    if (fixed) {
        tsr_tensor_release(g);
        *grad = fixed;
    }
    return TSR_OK;
}

/* Adds grad (taken) into slot. */
static tsr_status accumulate(tsr_tensor **slot, tsr_tensor *grad)
{
    if (!*slot) {
        *slot = grad;
        return TSR_OK;
    }
    tsr_tensor *sum;
    tsr_status st = tsr_add(*slot, grad, &sum);
    tsr_tensor_release(grad);
    if (st != TSR_OK)
        return st;
    tsr_tensor_release(*slot);
    *slot = sum;
    return TSR_OK;
}

static tsr_status zeros_for(const tsr__grad_meta *m, tsr_tensor **out)
{
    return tsr_zeros(m->ndim, m->shape, m->dtype, m->backend, out);
}

/* Whether a gradient sent to node can matter: always for tsr_backward; for
 * tsr_autograd_grad only on the way to a capture. */
static bool wanted(const graph *g, const tsr__node *node, bool capturing)
{
    const task *t = &g->tasks[find(g, node)];
    return !capturing || t->target || t->leads;
}

/* Whether a node touches complex values: an output, or an input that
 * receives a gradient, is complex. */
static bool involves_complex(const tsr__node *node)
{
    for (int k = 0; k < node->num_outputs; k++) {
        if (tsr_dtype_is_complex(node->outputs[k].dtype))
            return true;
    }
    for (int i = 0; i < node->num_inputs; i++) {
        const tsr__edge *e = &node->next[i];
        if (e->node && tsr_dtype_is_complex(e->node->outputs[e->input_nr].dtype))
            return true;
    }
    return false;
}

/* Runs one node and hands its input gradients on. */
static tsr_status run(graph *g, size_t index, bool retain, bool capturing)
{
    task *t = &g->tasks[index];
    tsr__node *node = t->node;
    if (node->released)
        return tsr__set_error(TSR_ERR_AUTOGRAD,
                              "backward: trying to backward through the graph a second time (or "
                              "to read saved tensors after they were freed): %s's saved tensors "
                              "were freed by the first backward; pass TSR_GRAD_RETAIN_GRAPH to it "
                              "to walk the graph again",
                              node->name);
    if (!node->leaf && !node->complex_ok && involves_complex(node))
        return tsr__set_error(TSR_ERR_UNIMPLEMENTED,
                              "backward of %s: the derivative of %s is not implemented for "
                              "complex tensors",
                              node->name, node->name);
    tsr_status st = TSR_OK;
    for (int k = 0; k < node->num_outputs && st == TSR_OK; k++) {
        if (!t->buffer[k])
            st = zeros_for(&node->outputs[k], &t->buffer[k]);
    }
    tsr_tensor **grads = tsr__calloc((size_t)node->num_inputs + 1, sizeof *grads);
    if (!grads)
        return out_of_memory();
    if (st == TSR_OK && (st = node->leaf ? tsr__accumulate_grad(node, t->buffer, grads)
                                         : node->backward(node, t->buffer, grads)) != TSR_OK)
        tsr__prefix_error("backward of %s", node->name);
    if (!retain && st == TSR_OK) /* a failed node keeps them, as in PyTorch */
        tsr__node_release_saved(node);
    for (int k = 0; k < node->num_outputs; k++) {
        tsr_tensor_release(t->buffer[k]);
        t->buffer[k] = NULL;
    }
    for (int i = 0; i < node->num_inputs; i++) {
        tsr__edge e = node->next[i];
        if (st == TSR_OK && grads[i] && e.node && wanted(g, e.node, capturing)) {
            st = conform(node, i, &e.node->outputs[e.input_nr], &grads[i]);
            if (st == TSR_OK) {
                st = accumulate(&g->tasks[find(g, e.node)].buffer[e.input_nr], grads[i]);
                grads[i] = NULL;
            }
        }
        tsr_tensor_release(grads[i]);
    }
    free(grads);
    return st;
}

static bool has_gradient(const task *t)
{
    for (int k = 0; k < t->node->num_outputs; k++) {
        if (t->buffer[k])
            return true;
    }
    return false;
}

/* ---- roots -------------------------------------------------------------- */

/* The gradient a root starts with: the one given (checked, converted) or ones. */
static tsr_status root_gradient(size_t i, const tsr_tensor *output, const tsr_tensor *given,
                                tsr_tensor **out)
{
    if (!given) {
        if (tsr_tensor_numel(output) != 1)
            return tsr__set_error(TSR_ERR_AUTOGRAD,
                                  "backward: grad can be implicitly created only for outputs with "
                                  "one element; output %zu has %lld",
                                  i, (long long)tsr_tensor_numel(output));
        return tsr_ones(output->ndim, output->shape, output->dtype, output->storage->backend, out);
    }
    if (given->ndim != output->ndim ||
        memcmp(given->shape, output->shape, (size_t)output->ndim * sizeof *output->shape)) {
        char a[160], b[160];
        return tsr__set_error(TSR_ERR_SHAPE,
                              "backward: mismatch in shape: grad_output[%zu] has shape %s and "
                              "output[%zu] has shape %s",
                              i, tsr__shape_str(given->ndim, given->shape, a, sizeof a), i,
                              tsr__shape_str(output->ndim, output->shape, b, sizeof b));
    }
    if (given->storage->backend != output->storage->backend)
        return tsr__set_error(TSR_ERR_DEVICE_MISMATCH,
                              "backward: grad_output[%zu] lives on another backend than its "
                              "output",
                              i);
    if ((tsr_dtype_is_complex(given->dtype) || tsr_dtype_is_complex(output->dtype)) &&
        given->dtype != output->dtype)
        return tsr__set_error(TSR_ERR_DTYPE,
                              "backward: for complex tensors, both grad_output and output are "
                              "required to have the same dtype; grad_output[%zu] is %s and "
                              "output[%zu] is %s",
                              i, tsr_dtype_name(given->dtype), i, tsr_dtype_name(output->dtype));
    return tsr_to_dtype(given, output->dtype, out);
}

typedef struct request {
    const tsr_tensor *const *outputs;
    size_t num_outputs;
    const tsr_tensor *const *grad_outputs;
    const capture *captures; /* NULL for tsr_backward */
    size_t num_captures;
    uint32_t flags;
    tsr_tensor **results; /* [num_captures] */
} request;

static tsr_status seed(graph *g, const request *r, const tsr__edge *edges)
{
    for (size_t i = 0; i < r->num_outputs; i++) {
        tsr_tensor *grad;
        const tsr_tensor *given = r->grad_outputs ? r->grad_outputs[i] : NULL;
        tsr_status st = root_gradient(i, r->outputs[i], given, &grad);
        if (st == TSR_OK)
            st = accumulate(&g->tasks[find(g, edges[i].node)].buffer[edges[i].input_nr], grad);
        if (st != TSR_OK)
            return st;
    }
    return TSR_OK;
}

/* Marks capture targets and the nodes above them, in reverse order. */
static void mark(graph *g, const request *r)
{
    for (size_t c = 0; c < r->num_captures; c++) {
        long i = r->captures[c].node ? find(g, r->captures[c].node) : -1;
        if (i >= 0)
            g->tasks[i].target = true;
    }
    for (size_t n = g->count; n-- > 0;) {
        task *t = &g->tasks[g->order[n]];
        for (int k = 0; k < t->node->num_inputs && !t->leads; k++) {
            tsr__node *next = t->node->next[k].node;
            if (next) {
                const task *u = &g->tasks[find(g, next)];
                t->leads = u->target || u->leads;
            }
        }
    }
}

static tsr_status take_captures(graph *g, const request *r, size_t index)
{
    const task *t = &g->tasks[index];
    for (size_t c = 0; c < r->num_captures; c++) {
        if (r->captures[c].node != t->node)
            continue;
        tsr_tensor *grad = t->buffer[r->captures[c].nr];
        if (!grad) {
            tsr_status st = zeros_for(&t->node->outputs[r->captures[c].nr], &r->results[c]);
            if (st != TSR_OK)
                return st;
            continue;
        }
        tsr_tensor_retain(grad);
        r->results[c] = grad;
    }
    return TSR_OK;
}

static tsr_status execute(const request *r)
{
    size_t n = r->num_outputs;
    tsr__edge *edges = tsr__calloc(n + 1, sizeof *edges);
    tsr__node **roots = tsr__calloc(n + 1, sizeof *roots);
    graph g = {0};
    tsr_status st = edges && roots ? TSR_OK : out_of_memory();
    for (size_t i = 0; i < n && st == TSR_OK; i++) {
        const tsr_tensor *o = r->outputs[i];
        if (!o)
            st = tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "backward: output %zu is NULL", i);
        else if (!tsr__requires_grad(o))
            st = tsr__set_error(TSR_ERR_AUTOGRAD,
                                "backward: element %zu of tensors does not require grad and does "
                                "not have a grad_fn",
                                i);
        else
            st = tsr__gradient_edge(o, &edges[i]);
        roots[i] = edges[i].node;
    }
    bool create_graph = r->flags & TSR_GRAD_CREATE_GRAPH;
    bool retain = create_graph || (r->flags & TSR_GRAD_RETAIN_GRAPH);
    bool previous = tsr_grad_mode_set(create_graph);
    if (st == TSR_OK)
        st = discover(&g, roots, n);
    if (st == TSR_OK)
        st = sort(&g);
    if (st == TSR_OK)
        st = seed(&g, r, edges);
    if (st == TSR_OK && r->captures)
        mark(&g, r);
    for (size_t k = 0; k < g.count && st == TSR_OK; k++) {
        size_t index = g.order[k];
        if (!has_gradient(&g.tasks[index]))
            continue;
        st = tsr__hooks_run(g.tasks[index].node, g.tasks[index].buffer, !r->captures);
        if (st == TSR_OK && g.tasks[index].target)
            st = take_captures(&g, r, index);
        if (st == TSR_OK && (!r->captures || g.tasks[index].leads))
            st = run(&g, index, retain, r->captures != NULL);
    }
    tsr_grad_mode_set(previous);
    graph_free(&g);
    for (size_t i = 0; edges && i < n; i++)
        tsr__node_release(edges[i].node);
    free(edges);
    free(roots);
    return st;
}

tsr_status tsr_backward(const tsr_tensor *loss, const tsr_tensor *grad, uint32_t flags)
{
    if (!loss)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "backward: loss must not be NULL");
    const tsr_tensor *outputs[1] = {loss}, *grads[1] = {grad};
    request r = {.outputs = outputs, .num_outputs = 1, .grad_outputs = grads, .flags = flags};
    return execute(&r);
}

static void release_all(tsr_tensor **tensors, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tsr_tensor_release(tensors[i]);
}

/* Where input j's gradient can be read: the tensor's gradient edge, its
 * grad_fn's input or its leaf's accumulator. The accumulator is created here
 * if no op made it yet, before the outputs' edges are taken, so an output
 * that is the input itself (y = x) leads to the same node; c->node holds a
 * reference the caller drops. A leaf no op used gets a fresh accumulator
 * outside the graph, so its capture stays empty ("not used"). */
static tsr_status input_capture(size_t j, const tsr_tensor *t, capture *c)
{
    if (!t)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT, "autograd_grad: input %zu is NULL", j);
    if (!tsr__requires_grad(t))
        return tsr__set_error(TSR_ERR_AUTOGRAD, "autograd_grad: input %zu does not require grad",
                              j);
    tsr__edge edge;
    tsr_status st = tsr__gradient_edge(t, &edge);
    if (st != TSR_OK) {
        tsr__prefix_error("autograd_grad: input %zu", j);
        return st;
    }
    *c = (capture){edge.node, edge.input_nr};
    return TSR_OK;
}

tsr_status tsr_autograd_grad(const tsr_tensor *const *outputs, size_t num_outputs,
                             const tsr_tensor *const *inputs, size_t num_inputs,
                             const tsr_tensor *const *grad_outputs, uint32_t flags,
                             tsr_tensor **results)
{
    if (!outputs || !num_outputs || !inputs || !num_inputs || !results)
        return tsr__set_error(TSR_ERR_INVALID_ARGUMENT,
                              "autograd_grad: outputs, inputs and results must be non-empty");
    capture *captures = tsr__calloc(num_inputs, sizeof *captures);
    tsr_tensor **found = tsr__calloc(num_inputs, sizeof *found);
    tsr_status st = captures && found ? TSR_OK : out_of_memory();
    for (size_t j = 0; j < num_inputs && st == TSR_OK; j++)
        st = input_capture(j, inputs[j], &captures[j]);
    request r = {.outputs = outputs,
                 .num_outputs = num_outputs,
                 .grad_outputs = grad_outputs,
                 .captures = captures,
                 .num_captures = num_inputs,
                 .flags = flags,
                 .results = found};
    if (st == TSR_OK)
        st = execute(&r);
    for (size_t j = 0; j < num_inputs && st == TSR_OK; j++) {
        if (!found[j] && !(flags & TSR_GRAD_ALLOW_UNUSED))
            st = tsr__set_error(TSR_ERR_AUTOGRAD,
                                "autograd_grad: input %zu appears not to have been used in the "
                                "graph; pass TSR_GRAD_ALLOW_UNUSED if this is intended",
                                j);
    }
    if (st == TSR_OK)
        memcpy(results, found, num_inputs * sizeof *found);
    else if (found)
        release_all(found, num_inputs);
    free(found);
    for (size_t j = 0; captures && j < num_inputs; j++)
        tsr__node_release((tsr__node *)captures[j].node);
    free(captures);
    return st;
}
