{{/*
Probes, all on the metrics port (the operations port, which the Ingress never routes to). Startup and liveness are
GET /healthz: is the process there and answering? gRPC services too, because their gRPC port takes only
mutual TLS with a certificate of Sika's internal CA, which Kubernetes' own `grpc` probe cannot present
(grpc.health.v1 still answers there, to any holder of such a certificate). Readiness is GET /readyz, which
checks the service's dependencies (database, broker); a replica that cannot reach its database leaves the
Service without being restarted, and a rollout whose new pods cannot reach it stops there instead of
replacing the working ones.
*/}}
{{- define "sika-lib.probes" -}}
{{- range $probe := list "startup" "liveness" }}
{{ $probe }}Probe:
  httpGet:
    path: /healthz
    port: metrics
  {{- toYaml (get $.Values.probes $probe) | nindent 2 }}
{{- end }}
readinessProbe:
  httpGet:
    path: /readyz
    port: metrics
  {{- toYaml .Values.probes.readiness | nindent 2 }}
{{- end -}}

{{/*
The service's Deployment: (dict "root" . "env" "<chart>.env"), where "<chart>.env" is the service chart's
template listing its own variables (literals and secret references).

Termination: on SIGTERM the process stops accepting, drains and exits within its own shutdown timeout
(25 s in every main.ts). The preStop pause first lets endpoints and load balancers forget the pod, so
terminationGracePeriodSeconds must exceed preStop + drain; the chart schema and the tests hold that.
*/}}
{{- define "sika-lib.deployment" -}}
{{- $envTemplate := .env -}}
{{- $root := .root -}}
{{- with $root -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "sika-lib.fullname" . }}
  labels:
    {{- include "sika-lib.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ .Values.revisionHistoryLimit }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "sika-lib.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "sika-lib.labels" . | nindent 8 }}
        {{- with .Values.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with .Values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "sika-lib.serviceAccountName" . }}
      # No Sika service talks to the Kubernetes API.
      automountServiceAccountToken: false
      {{- with include "sika-lib.imagePullSecrets" . }}
      {{- . | nindent 6 }}
      {{- end }}
      securityContext:
        {{- toYaml .Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds }}
      {{- with .Values.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.topologySpreadConstraints }}
      # Each constraint spreads this service's own pods: its labelSelector is the selector labels.
      topologySpreadConstraints:
        {{- range . }}
        - maxSkew: {{ .maxSkew }}
          topologyKey: {{ .topologyKey }}
          whenUnsatisfiable: {{ .whenUnsatisfiable }}
          labelSelector:
            matchLabels:
              {{- include "sika-lib.selectorLabels" $root | nindent 14 }}
        {{- end }}
      {{- end }}
      containers:
        - name: {{ .Chart.Name }}
          image: {{ include "sika-lib.image" . | quote }}
          imagePullPolicy: {{ include "sika-lib.imagePullPolicy" . }}
          securityContext:
            {{- toYaml .Values.containerSecurityContext | nindent 12 }}
          ports:
            {{- range $name, $port := .Values.ports }}
            - name: {{ $name }}
              containerPort: {{ $port }}
              protocol: TCP
            {{- end }}
          env:
            {{- include "sika-lib.commonEnv" . | nindent 12 }}
            {{- with include "sika-lib.grpcTlsEnv" . | trim }}
            {{- . | nindent 12 }}
            {{- end }}
            {{- with include $envTemplate . | trim }}
            {{- . | nindent 12 }}
            {{- end }}
            {{- with include "sika-lib.extraEnv" . | trim }}
            {{- . | nindent 12 }}
            {{- end }}
          {{- include "sika-lib.probes" . | trim | nindent 10 }}
          lifecycle:
            preStop:
              exec:
                command: ["sleep", {{ .Values.preStopSleepSeconds | toString | quote }}]
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
          volumeMounts:
            # The root filesystem is read-only; Node and its libraries may still want a scratch directory.
            - name: tmp
              mountPath: /tmp
            {{- with .Values.grpcTls }}
            - name: grpc-tls
              mountPath: {{ .mountPath }}
              readOnly: true
            {{- end }}
            {{- with .Values.extraVolumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpSizeLimit }}
        {{- if .Values.grpcTls }}
        - name: grpc-tls
          secret:
            secretName: {{ .Values.grpcTls.existingSecret | default (printf "%s-grpc-tls" (include "sika-lib.fullname" .)) }}
            # 0440: the key readable by the pod's group (fsGroup) alone; written in decimal, which every YAML reads alike.
            defaultMode: 288
        {{- end }}
        {{- with .Values.extraVolumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
{{- end -}}
{{- end -}}
