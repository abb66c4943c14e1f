# Geometry suites of the runtime (internal headers under runtime/src): closest points and penetrations
# (tst_geometry), segment casts (tst_segmentcast) and the triangle-mesh BVH (tst_bvh).
marionette_qtest(tst_geometry SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/Geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/TriangleMeshBvh.cpp LIBS Marionette::rig)
target_include_directories(tst_geometry PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
marionette_qtest(tst_segmentcast SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_segmentcast.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/Geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/TriangleMeshBvh.cpp LIBS Marionette::rig)
target_include_directories(tst_segmentcast PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
marionette_qtest(tst_bvh SOURCES ${CMAKE_CURRENT_LIST_DIR}/tst_bvh.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/Geometry.cpp ${CMAKE_SOURCE_DIR}/runtime/src/geometry/TriangleMeshBvh.cpp LIBS Marionette::rig)
target_include_directories(tst_bvh PRIVATE ${CMAKE_SOURCE_DIR}/runtime/src)
