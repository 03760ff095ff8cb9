# Copies a GLSL math file for C: drops the "lf" suffix of double literals,
# which C does not have. Run as:
#   cmake -DINPUT=<file.glsl> -DOUTPUT=<file.h> -P strip_double_suffix.cmake
file(READ "${INPUT}" text)
string(REGEX REPLACE "([0-9])lf([^A-Za-z0-9_])" "\\1\\2" text "${text}")
file(WRITE "${OUTPUT}" "/* Generated from ${INPUT}: do not edit. */\n${text}")
