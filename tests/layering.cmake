# ctest `layering`: the dependency arrows of docs/architecture.md, checked on the sources. Each rule names a
# folder and the includes its files may not have (a higher layer's headers, Qt, Assimp, Eigen); any such
# #include fails the test with the file, the line and the rule.
#   cmake -DROOT=<source folder> -P tests/layering.cmake
if(NOT ROOT)
  message(FATAL_ERROR "layering: pass -DROOT=<the source folder>")
endif()

set(widgets "<(QtWidgets/|QWidget|QMainWindow|QDialog|QApplication|QMessageBox|QPushButton|QLabel|QLayout|QVBoxLayout|QHBoxLayout)")
set(rules
  "foundation|marionette/(rig|runtime|project|import|plugin|editor)/|<Q[A-Za-z]|assimp/|Eigen/|no other layer, no Qt"
  "formats/rig|marionette/(runtime|project|import|plugin|editor)/|<Q[A-Za-z]|assimp/|Eigen/|only foundation"
  "runtime|marionette/(project|import|plugin|editor)/|<Q[A-Za-z]|assimp/|Eigen/|only formats/rig and foundation: games link it"
  "formats/import|marionette/(runtime|project|plugin|editor)/|<Q[A-Za-z]|only formats/rig, Assimp and the standard library"
  "formats/project|marionette/(runtime|import|plugin|editor)/|${widgets}|only formats/rig and QtCore"
  "plugins/api|marionette/(runtime|project|editor)/|${widgets}|the interfaces know only the formats"
  "editor/core|viewport/|${widgets}|the authoring model has no widgets"
  "editor/core/autorig|marionette/editor/(preview|pluginhost|document)/|<Q[A-Za-z]|the auto-rig: no other wing and no Qt (template plugins link it alone)"
  "editor/core/preview|marionette/editor/(autorig|pluginhost|document)/|the preview runs a rig: no other wing"
  "editor/core/pluginhost|marionette/editor/(preview|document)/|the plugin host and import workflow: the auto-rig only"
  "editor/core/document|marionette/editor/(autorig|preview|pluginhost)/|the document: no other wing"
  "editor/viewport|marionette/editor/|the viewport draws what it is given: no editor/core"
)

set(violations "")
foreach(rule IN LISTS rules)
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 folder)
  list(LENGTH parts n)
  math(EXPR last "${n} - 1")
  list(GET parts ${last} why)
  list(SUBLIST parts 1 ${last} alternatives)
  string(JOIN "|" forbidden ${alternatives})
  file(GLOB_RECURSE files "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.hpp" "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.c")
  if(NOT files)
    message(FATAL_ERROR "layering: no sources under ${folder}")
  endif()
  foreach(f IN LISTS files)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*" "" included "${line}")
      if(included MATCHES "(${forbidden})")
        file(RELATIVE_PATH rel "${ROOT}" "${f}")
        string(APPEND violations "\n  ${rel}: #include ${included} (${folder}: ${why})")
      endif()
    endforeach()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "layering: includes against the architecture (docs/architecture.md):${violations}")
endif()
message(STATUS "layering: every folder includes only what its layer may use")
