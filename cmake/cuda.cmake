# The cuda backend is an optional part: compiled when CB_WITH_CUDA is on and
# both the CUDA toolkit and NCCL are found, left out otherwise. (Issue 3.)
set(CB_HAVE_CUDA OFF)
