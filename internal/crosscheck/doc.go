// Package crosscheck holds only tests: checks of one package against an
// independent implementation in another that neither may import (the
// search's quiescence against the tuner's capture search, which sit side by
// side in the import graph). It has no API.
package crosscheck
