"""Re-embedding the chunks with another model (assets.reembedding, manage.py reembed_chunks).

From the test settings' `hashing` provider to the bundled MiniLM (`minilm`), both 384
dimensions, on real PostgreSQL; steps are run one by one in-process to stop mid-way, and the
command's task chain runs eagerly.
"""

from __future__ import annotations

import io
import logging

import numpy as np
import pytest
from django.core.management import call_command
from django.db import connection

from assets import reembedding, tenant_indexes
from assets.embedding import active_model, embedding_provider, provider_for
from assets.models import AssetChunk, EmbeddingIndex, ReembedJob, ReembedStatus, TenantVectorIndex
from assets.search import hybrid_chunk_search
from assets.selectors import SearchMode, asset_search
from config.celery import app as celery_app

# Every test embeds with the real MiniLM model.
pytestmark = pytest.mark.model

TOPICS = {
    "payroll.txt": "Payroll records of employees are kept for ten years after the tax year. ",
    "cctv.txt": "Recordings of the surveillance cameras in the lobby are erased after 72 hours. ",
    "cookies.txt": "Visitors may withdraw their consent to advertising cookies at any time. ",
    "breach.txt": "A processor notifies the controller of a personal data breach without delay. ",
}


def _minilm_name() -> str:
    try:
        return provider_for("minilm").name
    except Exception as error:  # pragma: no cover - the `local` extra is part of `make test`
        pytest.fail(f"install the project with its `local` extra: {error}")


@pytest.fixture
def small_chunks(settings):  # type: ignore[no-untyped-def]
    # ~4 chunks per file: several batches from a few small uploads.
    settings.CHUNK_SIZE = 200
    settings.CHUNK_OVERLAP = 0


@pytest.fixture
def corpus(uploaded, small_chunks, dpo, settings):  # type: ignore[no-untyped-def]
    """Four uploads embedded with `hashing` (the active model), the organization with its
    own vector index (assets.tenant_indexes)."""
    for name, sentence in TOPICS.items():
        uploaded(name, "".join(f"{sentence[:-2]} (clause {n}). " for n in range(10)).encode())
    assert active_model() == "hashing"
    settings.TENANT_VECTOR_INDEX_MIN_CHUNKS = 10
    assert tenant_indexes.reconcile().built == [tenant_indexes.index_name(dpo.organization.pk)]
    return dpo


def _run(job: ReembedJob, *, steps: int | None = None, until_phase: str | None = None) -> None:
    done = 0
    while steps is None or done < steps:
        if until_phase is not None and ReembedJob.objects.get(pk=job.pk).phase == until_phase:
            return
        outcome = reembedding.reembed_step(job_id=str(job.pk))
        done += 1
        if not outcome.more:
            return


def _search(dpo, query: str, mode: SearchMode) -> list[tuple[str, int, float]]:  # type: ignore[no-untyped-def]
    hits = asset_search(organization=dpo.organization, query=query, k=5, mode=mode)
    return [(hit.asset_id, hit.chunk_index, hit.score) for hit in hits]


def _vectors() -> dict[int, np.ndarray]:
    return {
        chunk_id: np.array(vector)
        for chunk_id, vector in AssetChunk.objects.values_list("id", "embedding")
    }


def _index_column(name: str) -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [name])
        row = cursor.fetchone()
    return row[0] if row else None


def test_the_chunks_move_to_the_new_model_and_the_column_swaps_at_completion(corpus, caplog):
    caplog.set_level(logging.INFO, logger="assets.reembedding")
    minilm = _minilm_name()
    total = AssetChunk.objects.count()
    assert total >= 12
    assert set(AssetChunk.objects.values_list("embedding_model", flat=True)) == {"hashing-v1-384"}

    job = reembedding.reembed_start(model="minilm", batch_size=5)
    _run(job)

    job.refresh_from_db()
    assert (job.status, job.phase, job.chunks_done) == (ReembedStatus.COMPLETED, "done", total)
    assert job.batches_done == -(-total // 5)
    assert EmbeddingIndex.objects.get().active_model == "minilm" == active_model()
    assert embedding_provider().name == minilm
    chunks = list(AssetChunk.objects.values_list("text", "embedding", "embedding_model"))
    assert {model for _, _, model in chunks} == {minilm}
    expected = np.array(provider_for("minilm").embed_documents([text for text, _, _ in chunks]))
    stored = np.array([vector for _, vector, _ in chunks])
    assert np.allclose(stored, expected, atol=1e-5)
    assert not AssetChunk.objects.filter(embedding_next__isnull=False).exists()
    # The organization's index built on the new column now serves the active one; no next
    # index is left.
    organization = corpus.organization.pk
    active_index = tenant_indexes.index_name(organization)
    assert "USING hnsw (embedding vector_cosine_ops)" in _index_column(active_index)
    assert _index_column(tenant_indexes.next_index_name(organization)) is None
    row = TenantVectorIndex.objects.get(organization_id=organization)
    assert row.index_name == active_index
    assert tenant_indexes.ready_index(organization) is not None
    # The next index was built through the active one's watermark, and its row keeps it.
    assert row.indexed_through_id is not None
    assert f"AND (id <= {row.indexed_through_id}))" in _index_column(active_index)
    with connection.cursor() as cursor:
        # (Whether the planner may use it inside this test's one transaction, which also
        # built it, depends on HOT chains; a later transaction may, as a search does.)
        cursor.execute(
            "SELECT index.indisvalid AND index.indisready AND index.indislive "
            "FROM pg_index index JOIN pg_class class ON class.oid = index.indexrelid "
            "WHERE class.relname = %s",
            [active_index],
        )
        assert cursor.fetchone() == (True,)
    # Queries are embedded with MiniLM: the best hit's score is MiniLM's cosine similarity.
    hits = asset_search(
        organization=corpus.organization,
        query="How long are the camera recordings kept?",
        k=1,
        mode=SearchMode.VECTOR,
    )
    assert hits[0].original_file_name == "cctv.txt"
    query = np.array(provider_for("minilm").embed_query("How long are the camera recordings kept?"))
    best = np.array(provider_for("minilm").embed_documents([hits[0].text])[0])
    assert hits[0].score == pytest.approx(float(query @ best), abs=1e-3)
    progress = reembedding.reembed_status()
    assert (progress.percent, progress.chunks_done, progress.eta_seconds) == (100.0, total, 0)
    logged = [record.getMessage() for record in caplog.records]
    assert f"re-embedding to minilm: 5/{total} chunks ({100 * 5 / total:.1f}%)" in logged[1]
    assert "ETA" in logged[1]
    assert any(message.startswith("re-embedding to minilm completed") for message in logged)


def test_the_completed_job_records_when_it_was_last_updated(corpus):
    job = reembedding.reembed_start(model="minilm", batch_size=50)
    _run(job)

    job.refresh_from_db()
    assert job.status == ReembedStatus.COMPLETED
    assert job.updated_at >= job.finished_at


def test_searches_use_the_old_vectors_and_model_until_the_new_ones_are_complete(corpus):
    before_vectors = _vectors()
    queries = ["payroll records", "surveillance cameras", "withdraw consent"]
    before = {(q, mode): _search(corpus, q, mode) for q in queries for mode in SearchMode}

    job = reembedding.reembed_start(model="minilm", batch_size=5)
    _run(job, steps=2)

    job.refresh_from_db()
    assert (job.phase, job.chunks_done) == ("embedding", 10)
    assert active_model() == "hashing"
    after_vectors = _vectors()
    assert after_vectors.keys() == before_vectors.keys()
    assert all(np.array_equal(before_vectors[i], v) for i, v in after_vectors.items())
    assert AssetChunk.objects.filter(embedding_next_model=_minilm_name()).count() == 10
    assert {(q, mode): _search(corpus, q, mode) for q in queries for mode in SearchMode} == before

    _run(job, until_phase="swapping")  # every vector and the new index, not swapped yet
    assert not AssetChunk.objects.filter(embedding_next__isnull=True).exists()
    assert {(q, mode): _search(corpus, q, mode) for q in queries for mode in SearchMode} == before


def test_an_interrupted_reembedding_resumes_after_the_last_committed_batch(
    corpus, monkeypatch, settings
):
    total = AssetChunk.objects.count()
    provider = provider_for("minilm")
    embedded: list[str] = []
    real_embed = provider.embed_documents
    calls = {"n": 0}

    def dies_on_the_third_batch(texts: list[str]) -> list[list[float]]:
        calls["n"] += 1
        if calls["n"] == 3:
            raise ConnectionError("the worker is gone")
        embedded.extend(texts)
        return real_embed(texts)

    monkeypatch.setattr(provider, "embed_documents", dies_on_the_third_batch)
    job = reembedding.reembed_start(model="minilm", batch_size=4)
    with pytest.raises(ConnectionError):
        _run(job)
    job.refresh_from_db()
    assert (job.batches_done, job.chunks_done) == (2, 8)
    committed = set(
        AssetChunk.objects.filter(embedding_next__isnull=False).values_list("id", flat=True)
    )
    assert len(committed) == 8 and max(committed) == job.cursor
    reembedding.reembed_mark_failed(job_id=str(job.pk), error="ConnectionError: the worker is gone")

    embedded.clear()
    resumed = reembedding.reembed_resume()
    assert resumed.pk == job.pk and resumed.status == ReembedStatus.RUNNING
    _run(resumed)

    resumed.refresh_from_db()
    assert resumed.status == ReembedStatus.COMPLETED
    texts_of_committed = list(
        AssetChunk.objects.filter(id__in=committed).values_list("text", flat=True)
    )
    # Only the chunks after the cursor were embedded again: no committed batch was redone.
    assert len(embedded) == total - 8
    assert set(texts_of_committed).isdisjoint(embedded)
    assert resumed.chunks_done == total


def test_chunks_ingested_during_the_reembedding_end_with_the_new_vector(
    corpus, uploaded, monkeypatch
):
    minilm = _minilm_name()
    job = reembedding.reembed_start(model="minilm", batch_size=5)
    _run(job, steps=1)

    during = uploaded("retention.txt", ("Tax documents are retained for six years. " * 10).encode())
    new_chunks = AssetChunk.objects.filter(asset=during)
    assert set(new_chunks.values_list("embedding_model", flat=True)) == {"hashing-v1-384"}
    _run(job, until_phase="swapping")
    late = uploaded("late.txt", ("Visitor badges are shredded after one month. " * 10).encode())
    assert AssetChunk.objects.filter(asset=late, embedding_next__isnull=True).exists()
    _run(job)

    job.refresh_from_db()
    assert job.status == ReembedStatus.COMPLETED
    for asset in (during, late):
        chunks = list(
            AssetChunk.objects.filter(asset=asset).values_list(
                "text", "embedding", "embedding_model"
            )
        )
        assert {model for _, _, model in chunks} == {minilm}
        expected = provider_for("minilm").embed_documents([text for text, _, _ in chunks])
        assert np.allclose(np.array([v for _, v, _ in chunks]), np.array(expected), atol=1e-5)
    hits = asset_search(
        organization=corpus.organization, query="When are badges destroyed?", k=1,
        mode=SearchMode.VECTOR,
    )  # fmt: skip
    assert hits[0].original_file_name == "late.txt"


def test_a_query_embedded_before_the_swap_is_not_compared_with_the_new_vectors(corpus):
    query = "How long are the camera recordings kept?"
    old_vector = provider_for("hashing").embed_query(query)
    job = reembedding.reembed_start(model="minilm", batch_size=50)
    _run(job)

    def rankers(model: str, vector: list[float]) -> set[str]:
        hits = hybrid_chunk_search(
            organization_id=corpus.organization.pk, query=query, vector=vector, k=5,
            vector_model=model,
        )  # fmt: skip
        return {ranker for hit in hits for ranker in hit.rankers}

    assert "vector" not in rankers("hashing", old_vector)
    assert "vector" in rankers("minilm", provider_for("minilm").embed_query(query))


def test_old_vectors_written_after_the_swap_are_re_embedded_in_place(corpus):
    job = reembedding.reembed_start(model="minilm", batch_size=8)
    _run(job, until_phase="sweeping")
    assert active_model() == "minilm"
    # An ingestion that took the old provider before the swap writes its batch after it.
    chunk = AssetChunk.objects.order_by("id").first()
    hashing = provider_for("hashing")
    straggler = AssetChunk.objects.create(
        asset_id=chunk.asset_id,
        organization_id=chunk.organization_id,
        index=999,
        text="Old vectors written late by a slow ingestion.",
        embedding=hashing.embed_documents(["Old vectors written late by a slow ingestion."])[0],
        embedding_model=hashing.name,
    )
    _run(job)

    straggler.refresh_from_db()
    assert straggler.embedding_model == _minilm_name()
    assert ReembedJob.objects.get(pk=job.pk).status == ReembedStatus.COMPLETED


def test_the_swap_records_the_watermark_of_the_index_it_renames(corpus):
    organization = corpus.organization.pk
    built_through = TenantVectorIndex.objects.get(organization_id=organization).indexed_through_id
    job = reembedding.reembed_start(model="minilm", batch_size=50)
    _run(job, until_phase="swapping")
    # As a rebuild of the active index that finished after the next one was built leaves
    # the row: another watermark than the next index's.
    TenantVectorIndex.objects.filter(organization_id=organization).update(indexed_through_id=1)

    _run(job)

    row = TenantVectorIndex.objects.get(organization_id=organization)
    assert row.indexed_through_id == built_through
    assert f"AND (id <= {built_through}))" in _index_column(row.index_name)


def test_a_cancelled_reembedding_leaves_the_active_vectors_and_can_start_again(corpus):
    before = _vectors()
    job = reembedding.reembed_start(model="minilm", batch_size=5)
    _run(job, until_phase="swapping")
    next_index = tenant_indexes.next_index_name(corpus.organization.pk)
    assert "USING hnsw (embedding_next vector_cosine_ops)" in _index_column(next_index)

    reembedding.reembed_cancel()

    assert ReembedJob.objects.get(pk=job.pk).status == ReembedStatus.CANCELLED
    assert not AssetChunk.objects.filter(embedding_next__isnull=False).exists()
    assert _index_column(next_index) is None
    assert "(embedding vector_cosine_ops)" in _index_column(
        tenant_indexes.index_name(corpus.organization.pk)
    )
    assert active_model() == "hashing"
    assert all(np.array_equal(before[i], v) for i, v in _vectors().items())
    assert not reembedding.reembed_step(job_id=str(job.pk)).more
    again = reembedding.reembed_start(model="minilm", batch_size=50)
    _run(again)
    assert ReembedJob.objects.get(pk=again.pk).status == ReembedStatus.COMPLETED


def test_the_command_runs_in_the_task_queue_and_reports_progress(corpus, monkeypatch):
    total = AssetChunk.objects.count()
    progress_lines: list[str] = []

    # Status printed from inside the chain, after the second batch: mid-way progress.
    real_step = reembedding.reembed_step
    steps = {"n": 0}

    def step_and_report(*, job_id: str) -> reembedding.StepOutcome:
        outcome = real_step(job_id=job_id)
        steps["n"] += 1
        if steps["n"] == 2:
            out = io.StringIO()
            call_command("reembed_chunks", "--status", stdout=out)
            progress_lines.append(out.getvalue())
        return outcome

    monkeypatch.setattr(reembedding, "reembed_step", step_and_report)
    conf = celery_app.conf
    previous = {"task_always_eager": conf.task_always_eager,
                "task_eager_propagates": conf.task_eager_propagates}  # fmt: skip
    conf.update(task_always_eager=True, task_eager_propagates=True)
    try:
        out = io.StringIO()
        call_command("reembed_chunks", "--model", "minilm", "--batch-size", "4", stdout=out)
    finally:
        conf.update(previous)

    assert "hashing to minilm" in out.getvalue()
    assert f"8/{total} chunks" in progress_lines[0]
    assert f"{round(100 * 8 / total, 1)}%" in progress_lines[0]
    assert "ETA" in progress_lines[0] and "RUNNING (embedding)" in progress_lines[0]
    final = io.StringIO()
    call_command("reembed_chunks", "--status", stdout=final)
    assert "Active model: minilm" in final.getvalue()
    assert f"COMPLETED (done), {total}/{total} chunks, 100.0%" in final.getvalue()


def test_the_command_refuses_the_active_model_and_a_second_target(corpus):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="already embedded with hashing"):
        call_command("reembed_chunks", "--model", "hashing")
    reembedding.reembed_start(model="minilm")
    with pytest.raises(CommandError, match="to minilm is running"):
        call_command("reembed_chunks", "--model", "e5-small")
    call_command("reembed_chunks", "--cancel", stdout=io.StringIO())
    with pytest.raises(CommandError, match="no re-embedding is running"):
        call_command("reembed_chunks", "--cancel")


def test_the_active_model_follows_the_settings_only_while_there_are_no_chunks(
    db, settings, small_chunks, uploaded
):
    assert active_model() == "hashing"
    settings.EMBEDDING_PROVIDER = "local"
    settings.EMBEDDING_LOCAL_MODEL = "e5-small"
    assert active_model() == "e5-small"  # nothing embedded yet: nothing to move

    settings.EMBEDDING_PROVIDER = "hashing"
    uploaded("a.txt", b"Payroll records are kept for ten years.")
    settings.EMBEDDING_PROVIDER = "local"
    assert active_model() == "hashing"  # chunks exist: only reembed_chunks changes it
    assert embedding_provider().name == "hashing-v1-384"
