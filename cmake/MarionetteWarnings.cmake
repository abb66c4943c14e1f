# Warnings on and treated as errors for the project's own targets.
function(marionette_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /permissive-)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
      -Wno-sign-conversion -Wnon-virtual-dtor -Woverloaded-virtual -Werror)
  endif()
endfunction()
