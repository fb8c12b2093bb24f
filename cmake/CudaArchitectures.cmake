# The GPU code every build carries, in one place (the top-level CMakeLists.txt and bench/gpu,
# which also builds alone, include this before CUDA is enabled). Machine code (SASS) for each
# architecture the kernels have a path of their own for, so that ptxas checks every path on
# every build, with or without a GPU:
#   sm_75  the plain paths (shuffles for warp sums, ordinary loads and stores), and Turing;
#   sm_80  cp.async, mma.sync (the tensor-core Gaussian), __reduce_add_sync; Ampere and Ada
#          (sm_86, sm_87, sm_89 run sm_80 code);
#   sm_90  the bulk copies (TMA) and their proxy fences, griddepcontrol (dependent launches),
#          min.u16x2; Hopper;
# plus compute_90 PTX, which the driver compiles for GPUs newer than the build (Blackwell on).
# A GPU older than sm_75 has no code here: the engine's start-up check (cuda/engine/KernelCheck.h)
# finds that once, and `auto` takes the CPU engine. -DCMAKE_CUDA_ARCHITECTURES=... overrides
# the list (scripts/dev gpu-test builds compute_75-only and compute_80-only variants with it).
set(CS_CUDA_ARCHITECTURES "75-real;80-real;90")   # 90: sm_90 machine code and compute_90 PTX
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES "${CS_CUDA_ARCHITECTURES}")
endif()

# "machine code for sm_75, sm_80, sm_90 and PTX for compute_90" for a list such as the above
# (configure's summary, and the engine's start-up message: cuda/engine/KernelCheck.h).
function(cs_describe_cuda_architectures out)
  set(sass "")
  set(ptx "")
  foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(a MATCHES "^([0-9]+[af]?)-real$")
      list(APPEND sass "sm_${CMAKE_MATCH_1}")
    elseif(a MATCHES "^([0-9]+[af]?)-virtual$")
      list(APPEND ptx "compute_${CMAKE_MATCH_1}")
    elseif(a MATCHES "^([0-9]+[af]?)$")
      list(APPEND sass "sm_${CMAKE_MATCH_1}")
      list(APPEND ptx "compute_${CMAKE_MATCH_1}")
    else()
      list(APPEND sass "${a}")   # native, all, all-major: as CMake resolves them
    endif()
  endforeach()
  list(JOIN sass ", " sass)
  list(JOIN ptx ", " ptx)
  if(sass AND ptx)
    set(text "machine code for ${sass} and PTX for ${ptx}")
  elseif(ptx)
    set(text "PTX for ${ptx} only")
  else()
    set(text "machine code for ${sass} only")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()
