package main

// Files (issue 25): posts' object store as a deployment gives it (MM_FILESETTINGS_* environment overrides).

import (
	"regexp"
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// credentialKey: a variable that holds a credential. ConfigMaps are readable by anyone who may read the
// namespace's configuration (and are printed by `kubectl describe`): credentials belong in Secrets.
var credentialKey = regexp.MustCompile(`(?i)(SECRETACCESSKEY|ACCESSKEYID|ACCESS_KEY|SECRET_KEY|PASSWORD|_SECRET$|^INTERNAL_SECRET)`)

func (c *checker) checkCredentialsNotInConfigMaps() {
	for _, o := range c.objects {
		cm, ok := o.obj.(*corev1.ConfigMap)
		if !ok {
			continue
		}
		for key := range cm.Data {
			if credentialKey.MatchString(key) {
				c.addf(o, "key %s is a credential: it belongs in a Secret (secretRef), never in a ConfigMap", key)
			}
		}
	}
}

// containerEnv resolves a container's variables as the kubelet would: envFrom in order (a later source
// wins), then env. Values from Secrets are "(secret)"; ConfigMaps outside the render are unknown (absent).
func (c *checker) containerEnv(ns string, ct corev1.Container) map[string]string {
	env := map[string]string{}
	for _, ef := range ct.EnvFrom {
		if ef.ConfigMapRef != nil {
			if o, ok := c.find("ConfigMap", ns, ef.ConfigMapRef.Name); ok {
				if cm, isCM := o.obj.(*corev1.ConfigMap); isCM {
					for k, v := range cm.Data {
						env[ef.Prefix+k] = v
					}
				}
			}
		}
		if ef.SecretRef != nil {
			if o, ok := c.find("Secret", ns, ef.SecretRef.Name); ok {
				if s, isSecret := o.obj.(*corev1.Secret); isSecret {
					for k := range s.Data {
						env[ef.Prefix+k] = "(secret)"
					}
					for k := range s.StringData {
						env[ef.Prefix+k] = "(secret)"
					}
				}
			}
		}
	}
	for _, e := range ct.Env {
		if e.ValueFrom == nil {
			env[e.Name] = e.Value
		} else if e.ValueFrom.SecretKeyRef != nil {
			env[e.Name] = "(secret)"
		}
	}
	return env
}

// maxReplicas: the most pods the Deployment may run (its replicas, or an HPA's maxReplicas on it).
func (c *checker) maxReplicas(o object, d *appsv1.Deployment) int32 {
	most := int32(1)
	if d.Spec.Replicas != nil {
		most = *d.Spec.Replicas
	}
	for _, other := range c.objects {
		if hpa, ok := other.obj.(*autoscalingv2.HorizontalPodAutoscaler); ok && other.ns == o.ns &&
			hpa.Spec.ScaleTargetRef.Kind == "Deployment" && hpa.Spec.ScaleTargetRef.Name == o.name && hpa.Spec.MaxReplicas > most {
			most = hpa.Spec.MaxReplicas
		}
	}
	return most
}

// checkFileStore: posts with DriverName=local (the default when nothing sets it) keeps files in each
// pod's own directory: with more than one replica a file uploaded through one is missing on the others.
// With amazons3 a bucket must be named and the egress policies must let posts reach the endpoint's port.
func (c *checker) checkFileStore() {
	for _, w := range c.workloads {
		d, ok := w.obj.(*appsv1.Deployment)
		if !ok || w.name != "posts" || len(w.template.Containers) == 0 {
			continue
		}
		env := c.containerEnv(w.ns, w.template.Containers[0])
		driver := env["MM_FILESETTINGS_DRIVERNAME"]
		if driver == "" {
			driver = "local"
		}
		if driver == "local" {
			if n := c.maxReplicas(w.object, d); n > 1 {
				c.addf(w.object, "FileSettings DriverName=local with up to %d replicas: each pod would keep its own files directory (a file uploaded through one replica is missing on the others); set MM_FILESETTINGS_DRIVERNAME=amazons3 (k8s/base/files.env) or run one replica", n)
			}
			continue
		}
		if env["MM_FILESETTINGS_AMAZONS3BUCKET"] == "" {
			c.addf(w.object, "FileSettings DriverName=amazons3 but MM_FILESETTINGS_AMAZONS3BUCKET is empty")
		}
		port := objectStorePort(env["MM_FILESETTINGS_AMAZONS3ENDPOINT"], env["MM_FILESETTINGS_AMAZONS3SSL"])
		if c.egressRestricted(w) && !c.egressAllows(w, port) {
			c.addf(w.object, "no NetworkPolicy lets posts reach its object store on TCP %d (MM_FILESETTINGS_AMAZONS3ENDPOINT %q): every upload would time out", port, env["MM_FILESETTINGS_AMAZONS3ENDPOINT"])
		}
	}
}

// checkBackupEgress: the backup CronJob (k8s/components/backup) must reach MongoDB and the object store
// under the egress policies, or every night's backup fails (or copies no files) until someone looks.
func (c *checker) checkBackupEgress() {
	for _, w := range c.workloads {
		if w.kind != "CronJob" || w.labels["app.kubernetes.io/name"] != "backup" || !c.egressRestricted(w) {
			continue
		}
		if !c.egressAllows(w, 27017) {
			c.addf(w.object, "no NetworkPolicy lets the backup reach MongoDB (TCP 27017)")
		}
		for _, ct := range append(append([]corev1.Container{}, w.template.InitContainers...), w.template.Containers...) {
			env := c.containerEnv(w.ns, ct)
			if bucket, ok := env["MM_FILESETTINGS_AMAZONS3BUCKET"]; ok && bucket != "" {
				if port := objectStorePort(env["MM_FILESETTINGS_AMAZONS3ENDPOINT"], env["MM_FILESETTINGS_AMAZONS3SSL"]); !c.egressAllows(w, port) {
					c.addf(w.object, "container %s copies the files, but no NetworkPolicy lets the backup reach the object store on TCP %d", ct.Name, port)
				}
			}
		}
	}
}

// objectStorePort: the endpoint's port, else 443 with SSL (the default) and 80 without.
func objectStorePort(endpoint, ssl string) int32 {
	if i := strings.LastIndex(endpoint, ":"); i >= 0 {
		if p, err := strconv.Atoi(endpoint[i+1:]); err == nil {
			return int32(p)
		}
	}
	if strings.EqualFold(ssl, "false") {
		return 80
	}
	return 443
}

// egressRestricted: some egress policy selects the workload's pods (otherwise everything may leave).
func (c *checker) egressRestricted(w workload) bool {
	for _, o := range c.objects {
		if np, ok := o.obj.(*networkingv1.NetworkPolicy); ok && o.ns == w.ns && hasPolicyType(np, networkingv1.PolicyTypeEgress) {
			return true
		}
	}
	return false
}
