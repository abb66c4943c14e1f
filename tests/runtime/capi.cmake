# C API test: a C11 program driving marionette/marionette.h (included from tests/runtime/CMakeLists.txt).
add_executable(c_api_test ${CMAKE_CURRENT_LIST_DIR}/c_api_test.c)
# The runtime is C++: link with the C++ driver so the standard library comes along.
set_target_properties(c_api_test PROPERTIES LINKER_LANGUAGE CXX C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_compile_options(c_api_test PRIVATE -Wall -Wextra -Werror)
target_link_libraries(c_api_test PRIVATE Marionette::runtime)
add_test(NAME c_api_test COMMAND c_api_test)
