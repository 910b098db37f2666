/* SplitMix64 as a C type: the compiled twin of meeple.core.rng.PureRng.
 *
 * Every method gives exactly the draws of the pure-Python class (tests/core/test_rng_twins.py
 * checks them side by side), so a game, a search or a record is the same with either. The
 * pure class is the fallback where this does not build, or when MEEPLE_PURE=1 is set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define GAMMA 0x9E3779B97F4A7C15ULL

typedef struct {
    PyObject_HEAD
    uint64_t state;
} RngObject;

static PyTypeObject RngType;

static inline uint64_t step(uint64_t *state) {
    uint64_t z = (*state += GAMMA);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A uniform draw in [0, n) for 0 < n <= 2**64 - 1, rejecting the biased top as the pure code
 * does: limit = 2**64 - (2**64 % n), computed without 128-bit arithmetic. */
static inline uint64_t below(uint64_t *state, uint64_t n) {
    uint64_t rem = (UINT64_MAX % n + 1) % n; /* 2**64 % n */
    for (;;) {
        uint64_t x = step(state);
        if (rem == 0 || x < 0 - rem) { /* 0 - rem == 2**64 - rem (mod 2**64) */
            return x % n;
        }
    }
}

/* Python int -> the low 64 bits, as `value & (2**64 - 1)` does for any int (negative too). */
static int masked(PyObject *value, uint64_t *out) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "an integer is required, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long low = PyLong_AsUnsignedLongLongMask(value);
    if (low == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (uint64_t)low;
    return 0;
}

static int Rng_init(RngObject *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"seed", NULL};
    PyObject *seed = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Rng", keywords, &seed)) {
        return -1;
    }
    self->state = 0;
    return seed == NULL ? 0 : masked(seed, &self->state);
}

static PyObject *Rng_next64(RngObject *self, PyObject *unused) {
    return PyLong_FromUnsignedLongLong(step(&self->state));
}

/* Check n like the pure code: ValueError for n <= 0. Returns 1 with *out set for 0 < n < 2**64,
 * 2 for n == 2**64 (every draw is accepted: the draw itself), -1 with an error set otherwise (the
 * pure code never returns for n > 2**64; here it is an OverflowError). */
static int bound(PyObject *n, uint64_t *out) {
    if (!PyLong_Check(n)) {
        PyErr_Format(PyExc_TypeError, "below() needs an integer, not %.100s", Py_TYPE(n)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long small = PyLong_AsLongLongAndOverflow(n, &overflow);
    if (small == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow < 0 || (overflow == 0 && small <= 0)) {
        PyErr_SetString(PyExc_ValueError, "below() needs n > 0");
        return -1;
    }
    if (overflow == 0) {
        *out = (uint64_t)small;
        return 1;
    }
    unsigned long long big = PyLong_AsUnsignedLongLong(n);
    if (!(big == (unsigned long long)-1 && PyErr_Occurred())) {
        *out = (uint64_t)big;
        return 1;
    }
    PyErr_Clear();
    PyObject *two64 = PyLong_FromUnsignedLongLong(1ULL << 63);
    if (two64 == NULL) {
        return -1;
    }
    PyObject *doubled = PyNumber_Add(two64, two64);
    Py_DECREF(two64);
    if (doubled == NULL) {
        return -1;
    }
    int equal = PyObject_RichCompareBool(n, doubled, Py_EQ);
    Py_DECREF(doubled);
    if (equal == 1) {
        return 2;
    }
    if (equal == 0) {
        PyErr_SetString(PyExc_OverflowError, "below() needs n <= 2**64");
    }
    return -1;
}

static PyObject *Rng_below(RngObject *self, PyObject *n) {
    uint64_t limit = 0;
    switch (bound(n, &limit)) {
    case 1:
        return PyLong_FromUnsignedLongLong(below(&self->state, limit));
    case 2:
        return PyLong_FromUnsignedLongLong(step(&self->state));
    default:
        return NULL;
    }
}

static PyObject *Rng_random(RngObject *self, PyObject *unused) {
    return PyFloat_FromDouble((double)(step(&self->state) >> 11) * (1.0 / 9007199254740992.0));
}

static PyObject *Rng_choice(RngObject *self, PyObject *items) {
    Py_ssize_t size = PySequence_Size(items);
    if (size < 0) {
        return NULL;
    }
    if (size == 0) {
        PyErr_SetString(PyExc_ValueError, "below() needs n > 0");
        return NULL;
    }
    return PySequence_GetItem(items, (Py_ssize_t)below(&self->state, (uint64_t)size));
}

static PyObject *Rng_shuffle(RngObject *self, PyObject *items) {
    Py_ssize_t size = PySequence_Size(items);
    if (size < 0) {
        return NULL;
    }
    if (PyList_CheckExact(items)) {
        for (Py_ssize_t i = size - 1; i > 0; i--) {
            Py_ssize_t j = (Py_ssize_t)below(&self->state, (uint64_t)(i + 1));
            PyObject *tmp = PyList_GET_ITEM(items, i);
            PyList_SET_ITEM(items, i, PyList_GET_ITEM(items, j));
            PyList_SET_ITEM(items, j, tmp);
        }
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = size - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)below(&self->state, (uint64_t)(i + 1));
        PyObject *a = PySequence_GetItem(items, i);
        if (a == NULL) {
            return NULL;
        }
        PyObject *b = PySequence_GetItem(items, j);
        if (b == NULL) {
            Py_DECREF(a);
            return NULL;
        }
        int failed = PySequence_SetItem(items, i, b) < 0 || PySequence_SetItem(items, j, a) < 0;
        Py_DECREF(a);
        Py_DECREF(b);
        if (failed) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static PyObject *Rng_clone(RngObject *self, PyObject *unused) {
    RngObject *copy = PyObject_New(RngObject, &RngType);
    if (copy != NULL) {
        copy->state = self->state;
    }
    return (PyObject *)copy;
}

static PyObject *Rng_reduce(RngObject *self, PyObject *unused) {
    return Py_BuildValue("(O(K))", (PyObject *)&RngType, (unsigned long long)self->state);
}

static PyObject *Rng_get_state(RngObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->state);
}

static int Rng_set_state(RngObject *self, PyObject *value, void *closure) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "the state cannot be deleted");
        return -1;
    }
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "the state is an integer, not %.100s", Py_TYPE(value)->tp_name);
        return -1;
    }
    unsigned long long state = PyLong_AsUnsignedLongLong(value);
    if (state == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "the state is a 64-bit unsigned integer");
        return -1;
    }
    self->state = (uint64_t)state;
    return 0;
}

static PyMethodDef Rng_methods[] = {
    {"next64", (PyCFunction)Rng_next64, METH_NOARGS, "The next 64-bit output."},
    {"below", (PyCFunction)Rng_below, METH_O, "Uniform integer in [0, n), without modulo bias."},
    {"random", (PyCFunction)Rng_random, METH_NOARGS, "Uniform float in [0, 1)."},
    {"choice", (PyCFunction)Rng_choice, METH_O, "One item of a non-empty sequence."},
    {"shuffle", (PyCFunction)Rng_shuffle, METH_O, "Fisher-Yates in place."},
    {"clone", (PyCFunction)Rng_clone, METH_NOARGS, "An independent generator in the same state."},
    {"__reduce__", (PyCFunction)Rng_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Rng_getset[] = {
    {"state", (getter)Rng_get_state, (setter)Rng_set_state, "The full state (a 64-bit int).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RngType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "meeple.core._rng.Rng",
    .tp_doc = "SplitMix64 generator (compiled). `state` is the full state (a 64-bit int).",
    .tp_basicsize = sizeof(RngObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rng_init,
    .tp_methods = Rng_methods,
    .tp_getset = Rng_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_rng", "The compiled SplitMix64 generator (see meeple.core.rng).", -1, NULL,
};

PyMODINIT_FUNC PyInit__rng(void) {
    if (PyType_Ready(&RngType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&RngType);
    if (PyModule_AddObject(m, "Rng", (PyObject *)&RngType) < 0) {
        Py_DECREF(&RngType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
