# FindNCCL: libnccl.so.2 and nccl.h, where PyTorch users and cluster images keep them.
# Search order (the same as dev.ncclbench.env.NativeLibraries): NCCL_HOME (CMake or environment),
# the project's deps/nccl (scripts/fetch-nccl.sh), LD_LIBRARY_PATH, CUDA_HOME, /usr/local/cuda, system
# paths, then the site-packages of the pip packages nvidia-nccl-cu13 / nvidia-nccl-cu12.
# Defines NCCL_FOUND, NCCL_LIBRARY, NCCL_INCLUDE_DIR (may be empty: the wheel has no header before 2.2x),
# NCCL_VERSION (from nccl.h when found) and the imported target NCCL::nccl.
# Nothing in ncclbench links NCCL at build time (the probe dlopen()s it); this is informational.

set(_nccl_hints "")
foreach(v NCCL_HOME NCCL_ROOT CUDA_HOME CUDA_PATH)
  if(DEFINED ${v})
    list(APPEND _nccl_hints "${${v}}")
  endif()
  if(DEFINED ENV{${v}})
    list(APPEND _nccl_hints "$ENV{${v}}")
  endif()
endforeach()
list(APPEND _nccl_hints "${CMAKE_CURRENT_LIST_DIR}/../deps/nccl" "/usr/local/cuda")
if(DEFINED ENV{LD_LIBRARY_PATH})
  string(REPLACE ":" ";" _ld "$ENV{LD_LIBRARY_PATH}")
  foreach(d IN LISTS _ld)
    if(d)
      list(APPEND _nccl_hints "${d}/..")
    endif()
  endforeach()
endif()
find_program(_nccl_python NAMES python3 python)
if(_nccl_python)
  execute_process(COMMAND "${_nccl_python}" -c "import site,sys; print(';'.join(site.getsitepackages()+[site.getusersitepackages()]))"
    OUTPUT_VARIABLE _nccl_sites OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET TIMEOUT 10)
  foreach(s IN LISTS _nccl_sites)
    list(APPEND _nccl_hints "${s}/nvidia/nccl")
  endforeach()
endif()

find_library(NCCL_LIBRARY NAMES libnccl.so.2 nccl HINTS ${_nccl_hints} PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)
find_path(NCCL_INCLUDE_DIR NAMES nccl.h HINTS ${_nccl_hints} PATH_SUFFIXES include)

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_v REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "NCCL_${part} +([0-9]+)" _m "${_nccl_v}")
    set(_nccl_${part} "${CMAKE_MATCH_1}")
  endforeach()
  if(NOT _nccl_MAJOR STREQUAL "")
    set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY VERSION_VAR NCCL_VERSION)

if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl SHARED IMPORTED)
  set_target_properties(NCCL::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}")
  if(NCCL_INCLUDE_DIR)
    set_target_properties(NCCL::nccl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
  endif()
endif()
mark_as_advanced(NCCL_LIBRARY NCCL_INCLUDE_DIR)
