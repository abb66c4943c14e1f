# The sparse LDLᵀ under the direct projection (an internal header, so the source is compiled in), against
# dense references.
marionette_qtest(tst_sparseldl SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_sparseldl.cpp ${CMAKE_SOURCE_DIR}/runtime/src/SparseLdl.cpp)
target_include_directories(tst_sparseldl PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
