# Which GPUs the kernels are built for. NCCLBENCH_CUDA_ARCHS overrides (a CMake list: "90;100").
# Default: every architecture nvcc 12.8+/13.x still supports that NCCL runs on, as real code, plus PTX of the
# newest so a future GPU can JIT it. Hopper (H100/H200) is sm_90.
set(NCCLBENCH_DEFAULT_CUDA_ARCHS "75;80;86;89;90;100;120")
if(NOT DEFINED NCCLBENCH_CUDA_ARCHS OR NCCLBENCH_CUDA_ARCHS STREQUAL "")
  set(NCCLBENCH_CUDA_ARCHS "${NCCLBENCH_DEFAULT_CUDA_ARCHS}")
endif()

# nvcc -gencode flags for a fatbin: SASS for each, PTX for the last.
function(ncclbench_gencode_flags out_var)
  set(flags "")
  set(last "")
  foreach(a IN LISTS NCCLBENCH_CUDA_ARCHS)
    list(APPEND flags "-gencode=arch=compute_${a},code=sm_${a}")
    set(last "${a}")
  endforeach()
  if(last)
    list(APPEND flags "-gencode=arch=compute_${last},code=compute_${last}")
  endif()
  set(${out_var} "${flags}" PARENT_SCOPE)
endfunction()
