# C API test: a C11 program driving marionette/marionette.h (included from tests/runtime/CMakeLists.txt).
# It loads a .mrig written by make_test_rigs (a ctest fixture) besides creating rigs in code.
add_executable(make_test_rigs ${CMAKE_CURRENT_LIST_DIR}/make_test_rigs.cpp)
target_link_libraries(make_test_rigs PRIVATE Marionette::runtime)
set_target_properties(make_test_rigs PROPERTIES AUTOMOC OFF)
marionette_warnings(make_test_rigs)
set(MARIONETTE_TEST_RIGS ${CMAKE_CURRENT_BINARY_DIR}/test_rigs)
file(MAKE_DIRECTORY ${MARIONETTE_TEST_RIGS})
add_test(NAME make_test_rigs COMMAND make_test_rigs ${MARIONETTE_TEST_RIGS})
set_tests_properties(make_test_rigs PROPERTIES FIXTURES_SETUP test_rigs)

add_executable(c_api_test ${CMAKE_CURRENT_LIST_DIR}/c_api_test.c)
# The runtime is C++: link with the C++ driver so the standard library comes along.
set_target_properties(c_api_test PROPERTIES LINKER_LANGUAGE CXX C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_compile_options(c_api_test PRIVATE -Wall -Wextra -Werror)
target_link_libraries(c_api_test PRIVATE Marionette::runtime)
add_test(NAME c_api_test COMMAND c_api_test ${MARIONETTE_TEST_RIGS}/humanoid.mrig)
set_tests_properties(c_api_test PROPERTIES FIXTURES_REQUIRED test_rigs)

# The rig's authored world settings and self-collision, from two .mrig files (c_api_authored_test.c).
add_executable(c_api_authored_test ${CMAKE_CURRENT_LIST_DIR}/c_api_authored_test.c)
set_target_properties(c_api_authored_test PROPERTIES LINKER_LANGUAGE CXX C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_compile_options(c_api_authored_test PRIVATE -Wall -Wextra -Werror)
target_link_libraries(c_api_authored_test PRIVATE Marionette::runtime)
add_test(NAME c_api_authored_test
         COMMAND c_api_authored_test ${MARIONETTE_TEST_RIGS}/humanoid.mrig ${MARIONETTE_TEST_RIGS}/authored.mrig)
set_tests_properties(c_api_authored_test PROPERTIES FIXTURES_REQUIRED test_rigs)

# Drive profiles on the rig side: MrRigDesc.profiles, the lookups, and a .mrig 1.3 file (c_api_drive_test.c).
add_executable(c_api_drive_test ${CMAKE_CURRENT_LIST_DIR}/c_api_drive_test.c)
set_target_properties(c_api_drive_test PROPERTIES LINKER_LANGUAGE CXX C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_compile_options(c_api_drive_test PRIVATE -Wall -Wextra -Werror)
target_link_libraries(c_api_drive_test PRIVATE Marionette::runtime)
add_test(NAME c_api_drive_test COMMAND c_api_drive_test ${MARIONETTE_TEST_RIGS}/drives.mrig)
set_tests_properties(c_api_drive_test PROPERTIES FIXTURES_REQUIRED test_rigs)
