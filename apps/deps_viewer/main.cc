// deps_viewer: a drop-in for the reference Python tool of the same name.
#include "viewer.h"

int main(int argc, char** argv) { return depgraph::ViewerMain(argc, argv); }
