# Installs the systemd units of dist/ (zamcap-nightly.service and its
# timer) as examples, with the service's /usr/local/bin/zamcap made the
# installed one (the .deb's is /usr/bin/zamcap). Included by
# cmake_install.cmake, which sets ZC_DIST (the source's dist/),
# ZC_UNITS_TMP, ZC_BINDIR and ZC_EXAMPLESDIR (relative to the prefix)
# first.
set(bin "${CMAKE_INSTALL_PREFIX}/${ZC_BINDIR}")
if(IS_ABSOLUTE "${ZC_BINDIR}")
  set(bin "${ZC_BINDIR}")
endif()
file(MAKE_DIRECTORY "${ZC_UNITS_TMP}")
foreach(name zamcap-nightly.service zamcap-nightly.timer)
  file(READ "${ZC_DIST}/${name}" unit)
  string(REPLACE "/usr/local/bin/zamcap" "${bin}/zamcap" unit "${unit}")
  file(WRITE "${ZC_UNITS_TMP}/${name}" "${unit}")
endforeach()
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${ZC_EXAMPLESDIR}"
     TYPE FILE FILES "${ZC_UNITS_TMP}/zamcap-nightly.service"
     "${ZC_UNITS_TMP}/zamcap-nightly.timer")
