// Package torishogi implements the rules of torishogi (work in progress).
package torishogi
