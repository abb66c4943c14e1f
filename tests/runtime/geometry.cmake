marionette_qtest(tst_geometry SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/Geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/TriangleMeshBvh.cpp LIBS Marionette::rig)
target_include_directories(tst_geometry PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
