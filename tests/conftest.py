"""Settings for the whole test run, applied before any test module imports NumPy.

BLAS gets one thread per process. The tests train small models in their own process (the app trains in a child
process that already runs on one thread, attn_core/training/worker.py): with two pytest workers on two cores,
OpenBLAS's spinning threads fought each other and the other worker's servers, and one module's short training runs
took 126 s instead of 11 s.
"""

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
