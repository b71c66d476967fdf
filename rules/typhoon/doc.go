// Package typhoon implements the rules of typhoon (work in progress).
package typhoon
