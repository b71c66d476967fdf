// Package deploy holds no code: the Dockerfile, the Kubernetes manifests
// (k8s/) and the Slurm script (slurm/) that run taifu on a cluster. Its test
// decodes the manifests strictly into the Kubernetes API types and checks
// their wiring.
package deploy
