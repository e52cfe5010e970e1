# Script mode helper of EmbedAssets.cmake: writes OUTPUT, a C++ source defining
# `const std::string_view NAMESPACE::SYMBOL` with the bytes of INPUT.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
# Break the initializer into lines of 16 bytes to keep the generated file readable.
string(REGEX REPLACE "(('[^']+',){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.
#include \"${HEADER}\"

namespace ${NAMESPACE} {
namespace {
constexpr char kBytes[] = {
${bytes}'\\0'};
}  // namespace
const std::string_view ${SYMBOL}(kBytes, ${size});
}  // namespace ${NAMESPACE}
")
