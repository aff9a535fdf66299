# One image for every service of the floor; the command picks the service:
#   docker build -t sicbo-floor:0.1.0 .
#   docker run --rm -e NATS_URL=nats://nats:4222 sicbo-floor:0.1.0 serve wagers
#   docker run --rm -e NATS_URL=nats://nats:4222 sicbo-floor:0.1.0 provision --replicas 3
#   docker run --rm -p 8080:8080 -e NATS_URL=nats://nats:4222 -e SICBO_GATEWAY_SECRET=... \
#     sicbo-floor:0.1.0 gateway serve --host 0.0.0.0 --port 8080
# The gateway's pages (sicbo/gateway/static/) and demo operator list are package data
# (pyproject.toml [tool.setuptools.package-data]): `pip install .` puts them in the image.
# Built from the repository alone: the project and lock/runtime.txt, the run-time part of the
# lock with every file's hash (`make lock`; tests/deploy/test_image.py keeps it in step with
# pyproject.toml and lock/dev.txt), so an image holds the versions the test suite ran with.
ARG PYTHON_IMAGE=python:3.11-slim

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
# pip and the build backend are in the lock too (lock/installers.in): no isolated build
# environment with whatever setuptools is newest on the day.
RUN python -m venv /opt/sicbo
WORKDIR /src
COPY lock/runtime.txt ./lock/
COPY pyproject.toml README.md ./
COPY contracts ./contracts
COPY services ./services
RUN /opt/sicbo/bin/pip install --require-hashes --no-deps -r lock/runtime.txt \
    && /opt/sicbo/bin/pip install --no-deps --no-build-isolation . \
    && /opt/sicbo/bin/pip uninstall --yes setuptools \
    && /opt/sicbo/bin/pip check

FROM ${PYTHON_IMAGE}
# A fixed numeric uid/gid: Kubernetes checks runAsNonRoot against the image's numeric user.
RUN groupadd --system --gid 10001 sicbo \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin sicbo
COPY --from=build /opt/sicbo /opt/sicbo
ENV PATH=/opt/sicbo/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
# A service's probes (deploy/kustomize sets SICBO_HEALTH_PORT=8080; not served when unset),
# or the web gateway's HTTP port (`sicbo gateway serve --port 8080`, its default).
EXPOSE 8080
USER 10001:10001
WORKDIR /tmp
ENTRYPOINT ["sicbo"]
CMD ["--help"]
