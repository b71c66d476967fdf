// Package nanashogi implements the rules of nanashogi (work in progress).
package nanashogi
