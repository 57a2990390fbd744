{{/*
Environment. Every variable a service's src/config.ts requires is set by its chart, one of three ways:
  - by the library for all services (HOST, LOG_LEVEL and one <NAME>_PORT per entry of .Values.ports);
  - by the service chart's own env template, as a literal (sika-lib.envVar) or from a Secret
    (sika-lib.secretEnvVar): secrets are only ever referenced, never written into a manifest;
  - by .Values.extraEnv for the optional tunables.
*/}}

{{/* A literal variable: (dict "name" "CHECKOUT_BASE_URL" "value" "https://pay.example.com"). */}}
{{- define "sika-lib.envVar" -}}
- name: {{ .name }}
  value: {{ .value | toString | quote }}
{{- end -}}

{{/*
A variable read from a Secret: (dict "root" . "name" "DATABASE_URL"). The Secret is
.Values.secrets.existingSecret (default: the service's full name, e.g. "sika-merchants") and the key is the
variable's name, unless .Values.secrets.keys.<NAME> points elsewhere: {secret: <name>, key: <key>} (e.g. the
"uri" key of a Secret written by a Postgres operator). With "optional" true, the Secret may lack the key.
*/}}
{{- define "sika-lib.secretEnvVar" -}}
{{- $root := .root -}}
{{- $ref := get ($root.Values.secrets.keys | default dict) .name | default dict -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.secret | default $root.Values.secrets.existingSecret | default (include "sika-lib.fullname" $root) }}
      key: {{ $ref.key | default .name }}
{{- if .optional }}
      optional: true
{{- end }}
{{- end -}}

{{/*
"host:port" of another Sika service of the same release (dict "root" . "peer" "merchants"): from
.Values.peers.<peer>.address when set, else "<release>-<peer>:<.Values.peers.<peer>.port>", the name that
service's chart gives its Service.
*/}}
{{- define "sika-lib.peerAddress" -}}
{{- $peer := get .root.Values.peers .peer -}}
{{- if $peer.address -}}
{{- $peer.address -}}
{{- else -}}
{{- printf "%s:%s" (include "sika-lib.releaseScopedName" (dict "release" .root.Release.Name "name" .peer)) (toString $peer.port) -}}
{{- end -}}
{{- end -}}

{{/* The variables every service gets: where to listen, how much to log, and its ports. */}}
{{- define "sika-lib.commonEnv" -}}
- name: HOST
  value: {{ .Values.listenHost | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- /* V8's heap sized for the service, not for the node: the measured configuration of README "Throughput". */}}
- name: NODE_OPTIONS
  value: {{ (.Values.global).nodeOptions | default "--max-old-space-size=96 --max-semi-space-size=4" | quote }}
{{- /* glibc keeps the freed pages of an arena per allocating thread: one in all kept psp-connector ≈ 50 MiB lower. */}}
- name: MALLOC_ARENA_MAX
  value: "1"
{{- /* OpenTelemetry traces (docs/operating.md "Traces"): off unless global.tracing.otlpEndpoint is set. */}}
{{- with (.Values.global).tracing }}
{{- if .otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ .otlpEndpoint | quote }}
- name: OTEL_TRACES_SAMPLER
  value: parentbased_traceidratio
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ .samplerRatio | toString | quote }}
{{- end }}
{{- end }}
{{- range $name, $port := .Values.ports }}
- name: {{ printf "%s_PORT" (upper $name) }}
  value: {{ toString $port | quote }}
{{- end }}
{{- end -}}

{{/* .Values.extraEnv as literal variables, sorted by name. */}}
{{- define "sika-lib.extraEnv" -}}
{{- range $name, $value := .Values.extraEnv }}
- name: {{ $name }}
  value: {{ toString $value | quote }}
{{- end }}
{{- end -}}

{{/*
Internal mutual TLS (services with a grpcTls values block): the files of the mounted Secret, in the format of
cert-manager's Certificate Secret, as src/config.ts reads them (@sika/platform grpcTlsEnv).
*/}}
{{- define "sika-lib.grpcTlsEnv" -}}
{{- with .Values.grpcTls }}
- name: GRPC_TLS_CERT_FILE
  value: {{ printf "%s/tls.crt" .mountPath | quote }}
- name: GRPC_TLS_KEY_FILE
  value: {{ printf "%s/tls.key" .mountPath | quote }}
- name: GRPC_TLS_CA_FILE
  value: {{ printf "%s/ca.crt" .mountPath | quote }}
{{- end }}
{{- end -}}
