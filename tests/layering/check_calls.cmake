# cmake -DDIRS="folder;folder" -DPATTERN=regex -DWHAT=text -P check_calls.cmake
# Fails when a source file under DIRS has a line (outside a // comment) that calls a function
# whose name matches PATTERN.
foreach(dir IN LISTS DIRS)
  file(GLOB_RECURSE sources "${dir}/*.h" "${dir}/*.cpp")
  foreach(f IN LISTS sources)
    file(STRINGS "${f}" lines REGEX "(^|[^A-Za-z0-9_])(${PATTERN})[ \t]*\\(")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "//.*$" "" code "${line}")
      if(code MATCHES "(^|[^A-Za-z0-9_])(${PATTERN})[ \t]*\\(")
        message(FATAL_ERROR "${f} calls ${WHAT}: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()
message(STATUS "${DIRS}: no call to ${WHAT}")
