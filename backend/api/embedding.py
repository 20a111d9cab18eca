"""The vault's embedding model: `GET /api/vault/embedding` (the model in use, its measured speed, the models
one can switch to, a switch's progress), `PUT` to switch to another model in the background, and `DELETE
/api/vault/embedding/switch` to cancel a switch. Searches use the active model until a switch completes."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from backend.api.deps import DatabaseDep, EmbedderDep, LLMDep, ModelSwitchDep, SearchDep
from backend.progress.embedding import EmbeddingOut, embedding_overview

router = APIRouter(prefix="/api/vault/embedding", tags=["vault"])


class SwitchIn(BaseModel):
    model: str = Field(min_length=1, max_length=200,
                       description="A model from `choices` (e.g. `ollama:nomic-embed-text`); the active one "
                                   "cancels a switch under way")


@router.get("")
def get_embedding(db: DatabaseDep, llm: LLMDep, embedder: EmbedderDep, search: SearchDep) -> EmbeddingOut:
    """The model searches use, its speed measured here, the models one can switch to, and the switch under way."""
    return embedding_overview(db, llm, embedder, search)


@router.put("", responses={422: {"description": "`unknown_embedding_model`: not a model one can switch to"}})
async def switch_model(body: SwitchIn, db: DatabaseDep, llm: LLMDep, embedder: EmbedderDep, search: SearchDep,
                       switch: ModelSwitchDep) -> EmbeddingOut:
    """Re-embed every passage with `model` in the background (durable); searches keep the active model's
    vectors until the new ones cover every passage, then every process uses the new model. 503
    `model_unavailable` while Ollama, which lists its models, is not running."""
    await run_in_threadpool(switch.switch_to, body.model)
    return await run_in_threadpool(embedding_overview, db, llm, embedder, search)


@router.delete("/switch")
async def cancel_switch(db: DatabaseDep, llm: LLMDep, embedder: EmbedderDep, search: SearchDep,
                        switch: ModelSwitchDep) -> EmbeddingOut:
    """Stop the switch under way and drop its new vectors; searches go on with the active model."""
    await run_in_threadpool(switch.cancel)
    return await run_in_threadpool(embedding_overview, db, llm, embedder, search)
