{{/*
Database migrations: a Job run by Helm before the release's resources are installed or upgraded
(pre-install, pre-upgrade), so a new version never starts on an old schema. It runs the service's own image
with `prisma migrate deploy` (the image carries the Prisma CLI, the root prisma.config.ts and the service's
committed migrations) and connects as the schema's owner role, from its own Secret
(.Values.migrations.ownerSecret). The service's pods never see that credential: they log in as the runtime
role, which may read and write rows but cannot alter, drop or disable anything. Both roles and the schema
must exist (see scripts/db/README.md: a DBA, an operator or the dev Postgres of k8s/ creates them; the Job
never holds an admin credential).

Hook resources are not part of the release: before-hook-creation replaces the previous run's Job, and a
succeeded Job is deleted; a failed one stays for `kubectl logs` until the next attempt.
*/}}
{{- define "sika-lib.migrationJob" -}}
{{- if .Values.migrations.enabled -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ printf "%s-migrate" (include "sika-lib.fullname" . | trunc 55 | trimSuffix "-") }}
  labels:
    {{- include "sika-lib.migrationLabels" . | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "0"
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .Values.migrations.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.migrations.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "sika-lib.migrationLabels" . | nindent 8 }}
    spec:
      restartPolicy: Never
      # Runs before the release's ServiceAccount exists; it needs no API access either.
      automountServiceAccountToken: false
      {{- with include "sika-lib.imagePullSecrets" . }}
      {{- . | nindent 6 }}
      {{- end }}
      securityContext:
        {{- toYaml .Values.podSecurityContext | nindent 8 }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: migrate
          image: {{ include "sika-lib.image" . | quote }}
          imagePullPolicy: {{ include "sika-lib.imagePullPolicy" . }}
          workingDir: /app/migrate
          command:
            {{- toYaml .Values.migrations.command | nindent 12 }}
          securityContext:
            {{- toYaml .Values.containerSecurityContext | nindent 12 }}
          env:
            - name: DATABASE_URL
              valueFrom:
                secretKeyRef:
                  name: {{ include "sika-lib.migrationOwnerSecret" . }}
                  key: {{ .Values.migrations.ownerSecret.key }}
            # What prisma.config.ts migrates: this service's Prisma schema, migrations and Postgres schema.
            - name: SIKA_DB_SCHEMA
              value: {{ required "database.schema is required" .Values.database.schema | quote }}
            - name: SIKA_PRISMA_SCHEMA
              value: /app/prisma/schema
            - name: SIKA_PRISMA_MIGRATIONS
              value: /app/prisma/migrations
            # The root filesystem is read-only: caches (jiti's transpiled config) go to /tmp.
            - name: HOME
              value: /tmp
          resources:
            {{- toYaml .Values.migrations.resources | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end -}}
{{- end -}}

{{/* The Secret of the owner's connection string: migrations.ownerSecret.name, else <full name>-db-owner. */}}
{{- define "sika-lib.migrationOwnerSecret" -}}
{{- .Values.migrations.ownerSecret.name | default (printf "%s-db-owner" (include "sika-lib.fullname" .)) -}}
{{- end -}}

{{/*
The migration pods' own NetworkPolicy, a hook created just before the Job: the service's NetworkPolicy does
not exist yet at pre-install and does not select these pods anyway (component "migrations"). DNS and
Postgres out, nothing in.
*/}}
{{- define "sika-lib.migrationNetworkPolicy" -}}
{{- $settings := include "sika-lib.networkPolicySettings" . | fromJson -}}
{{- if and .Values.migrations.enabled $settings.networkPolicy.enabled -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ printf "%s-migrate" (include "sika-lib.fullname" . | trunc 55 | trimSuffix "-") }}
  labels:
    {{- include "sika-lib.migrationLabels" . | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: "-10"
    helm.sh/hook-delete-policy: before-hook-creation
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: {{ include "sika-lib.name" . }}
      app.kubernetes.io/instance: {{ .Release.Name }}
      app.kubernetes.io/component: migrations
  policyTypes:
    - Ingress
    - Egress
  egress:
    {{- include "sika-lib.dnsEgress" $settings.networkPolicy.dns | nindent 4 }}
    {{- include "sika-lib.infrastructureEgress" (dict "settings" $settings "names" (list "postgres")) | trim | nindent 4 }}
{{- end -}}
{{- end -}}
