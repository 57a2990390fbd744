{{/*
Names and labels. Kubernetes object names are DNS labels: at most 63 characters, so every generated name is
truncated there (and a trailing "-" left by the cut removed).
*/}}

{{/* The chart's short name: the service name unless nameOverride says otherwise. */}}
{{- define "sika-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The name of every object of the release for this service: "<release>-<service>", or the release name alone
when it already contains the service name (a release called "merchants" gives "merchants").
*/}}
{{- define "sika-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- include "sika-lib.releaseScopedName" (dict "release" .Release.Name "name" (default .Chart.Name .Values.nameOverride)) -}}
{{- end -}}
{{- end -}}

{{/* The fullname rule for any service of the release: (dict "release" .Release.Name "name" "<service>"). */}}
{{- define "sika-lib.releaseScopedName" -}}
{{- if contains .name .release -}}
{{- .release | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .release .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "sika-lib.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Selector labels of the service's pods. They are immutable on a Deployment, so nothing that can change
(version, chart) is in them; "component: server" keeps the migration Job's pods out of the Service,
the PodDisruptionBudget and the NetworkPolicy of the running service.
*/}}
{{- define "sika-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sika-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{/* Labels every object carries (selector labels included). */}}
{{- define "sika-lib.labels" -}}
helm.sh/chart: {{ include "sika-lib.chart" . }}
{{ include "sika-lib.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: sika
{{- end -}}

{{/* The same set for the migration Job and its pods: component "migrations". */}}
{{- define "sika-lib.migrationLabels" -}}
helm.sh/chart: {{ include "sika-lib.chart" . }}
app.kubernetes.io/name: {{ include "sika-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: migrations
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: sika
{{- end -}}

{{- define "sika-lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "sika-lib.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The image: [registry/]repository then @digest or :tag. The registry and tag fall back to global.image
(one place to point a whole release at a registry and a version), then the tag to the chart's appVersion.
*/}}
{{- define "sika-lib.image" -}}
{{- $global := dig "image" dict (.Values.global | default dict) -}}
{{- $registry := .Values.image.registry | default $global.registry -}}
{{- $repository := ternary (printf "%s/%s" $registry .Values.image.repository) .Values.image.repository (not (empty $registry)) -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository (.Values.image.tag | default $global.tag | default .Chart.AppVersion | toString) -}}
{{- end -}}
{{- end -}}

{{- define "sika-lib.imagePullPolicy" -}}
{{- .Values.image.pullPolicy | default (dig "image" "pullPolicy" "" (.Values.global | default dict)) | default "IfNotPresent" -}}
{{- end -}}

{{- define "sika-lib.imagePullSecrets" -}}
{{- $secrets := concat (.Values.imagePullSecrets | default list) (dig "image" "pullSecrets" list (.Values.global | default dict)) -}}
{{- with $secrets -}}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end -}}
{{- end -}}
