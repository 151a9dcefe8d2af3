# Installs the README's systemd units (the nightly service and its timer,
# section "Nightly") as examples: read from the README at install time,
# so that the two never differ, with the README's /usr/local/bin/zamcap
# made the installed one (the .deb's is /usr/bin/zamcap). Included by
# cmake_install.cmake, which sets ZC_README, ZC_UNITS_TMP, ZC_BINDIR and
# ZC_EXAMPLESDIR (relative to the prefix) first.
file(READ "${ZC_README}" readme)
set(marker "systemd (`/etc/systemd/system/zamcap-nightly.service` and `.timer`")
string(FIND "${readme}" "${marker}" at)
if(at LESS 0)
  message(FATAL_ERROR "${ZC_README}: no \"${marker}\" to take the units from")
endif()
string(SUBSTRING "${readme}" ${at} -1 rest)
# The first two ``` blocks after it: the service, then the timer.
set(units zamcap-nightly.service zamcap-nightly.timer)
set(want "[Service]" "[Timer]")
file(MAKE_DIRECTORY "${ZC_UNITS_TMP}")
foreach(i 0 1)
  string(FIND "${rest}" "```\n" open)
  if(open LESS 0)
    message(FATAL_ERROR "${ZC_README}: the units' blocks are missing")
  endif()
  math(EXPR open "${open} + 4")
  string(SUBSTRING "${rest}" ${open} -1 rest)
  string(FIND "${rest}" "```" close)
  string(SUBSTRING "${rest}" 0 ${close} unit)
  math(EXPR close "${close} + 3")
  string(SUBSTRING "${rest}" ${close} -1 rest)
  list(GET units ${i} name)
  list(GET want ${i} section)
  string(FIND "${unit}" "${section}" has)
  if(has LESS 0)
    message(FATAL_ERROR "${ZC_README}: the block for ${name} has no ${section}")
  endif()
  set(bin "${CMAKE_INSTALL_PREFIX}/${ZC_BINDIR}")
  if(IS_ABSOLUTE "${ZC_BINDIR}")
    set(bin "${ZC_BINDIR}")
  endif()
  string(REPLACE "/usr/local/bin/zamcap" "${bin}/zamcap" unit "${unit}")
  file(WRITE "${ZC_UNITS_TMP}/${name}" "${unit}")
endforeach()
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${ZC_EXAMPLESDIR}"
     TYPE FILE FILES "${ZC_UNITS_TMP}/zamcap-nightly.service"
     "${ZC_UNITS_TMP}/zamcap-nightly.timer")
