# cmake -DDIR=folder -DPATTERN=regex -DWHAT=text -P check_includes.cmake
# Fails when a source file under DIR has an #include line whose header matches PATTERN.
file(GLOB_RECURSE sources "${DIR}/*.h" "${DIR}/*.cpp" "${DIR}/*.in")
foreach(f IN LISTS sources)
  file(STRINGS "${f}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${PATTERN})")
  if(hits)
    message(FATAL_ERROR "${f} includes ${WHAT}: ${hits}")
  endif()
endforeach()
message(STATUS "${DIR}: no ${WHAT}")
